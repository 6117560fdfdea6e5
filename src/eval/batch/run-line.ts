/** One batch line on its own to its output line: the tool's receipt verbatim, or a problem. */
import type { FastifyBaseLogger } from 'fastify';
import { toProblem } from '../../core/errors.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import type { RunTool } from '../speed/run-tool.js';
import { BATCH_HINT, failureProblem, problemLine, receiptLine } from './answer.js';
import { LineError } from '../errors.js';
import type { ParsedLine } from './lines.js';

export interface LineRunDeps {
  runTool: RunTool;
  usage: UsageCounters;
}

/** The answer line in place of a line that could not be read. */
export function badLineAnswer(line: LineError): string {
  return problemLine(line.id, { ...toProblem(line), hint: BATCH_HINT });
}

/** Runs a parsed line (or answers the error its parse gave) through run-tool.ts; never rejects. */
export function lineRunner(
  deps: LineRunDeps,
  log: FastifyBaseLogger,
): (line: ParsedLine | LineError, index: number) => Promise<string> {
  return async (line, index) => {
    if (line instanceof LineError) return badLineAnswer(line);
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
