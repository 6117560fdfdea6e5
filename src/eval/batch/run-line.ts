/** One batch line on its own to its output line: the tool's receipt verbatim, or a problem. */
import type { FastifyBaseLogger } from 'fastify';
import { toProblem } from '../../core/errors.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import type { RunTool } from '../speed/run-tool.js';
import { BATCH_HINT, failureProblem, problemLine, receiptLine } from './answer.js';
import type { LineError } from '../errors.js';
import type { ParsedLine } from './lines.js';

export interface LineRunDeps {
  runTool: RunTool;
  usage: UsageCounters;
}

/** Most distinct problems a batch keeps written out: bad lines repeat a handful of them. */
const KEPT_PROBLEMS = 32;

/**
 * The answer line in place of a line that could not be read, for one batch: each distinct
 * problem is written out once (a batch of 10,000 bad lines repeats a few of them).
 */
export function badLineAnswers(): (line: LineError) => string {
  const written = new Map<string, string>();
  return (line) => {
    const key = `${line.code} ${line.message}`;
    let problem = written.get(key);
    if (problem === undefined) {
      problem = JSON.stringify({ ...toProblem(line), hint: BATCH_HINT });
      if (written.size < KEPT_PROBLEMS) written.set(key, problem);
    }
    return `{"id":${JSON.stringify(line.id)},"status":${line.status},"problem":${problem}}\n`;
  };
}

/** Runs a parsed line through run-tool.ts; never rejects. */
export function lineRunner(
  deps: LineRunDeps,
  log: FastifyBaseLogger,
): (line: ParsedLine, index: number) => Promise<string> {
  return async (line, index) => {
    try {
      const outcome = await deps.runTool(line.tool, line.request);
      if (!outcome.ok) {
        deps.usage.record(line.tool.id, outcome.problem.status);
        return problemLine(line.id, outcome.problem);
      }
      deps.usage.record(line.tool.id, 200, outcome.verdict);
      return receiptLine(line.id, outcome.body);
    } catch (err) {
      const problem = failureProblem(err, index + 1);
      if (problem.status === 500) log.error({ err, line: index + 1 }, 'batch line failed');
      deps.usage.record(line.tool.id, problem.status);
      return problemLine(line.id, problem);
    }
  };
}
