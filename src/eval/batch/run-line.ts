/** One batch line to its output line: the tool's receipt verbatim, or a problem. */
import type { FastifyBaseLogger } from 'fastify';
import { AppError, toProblem, type Problem } from '../../core/errors.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import type { RunTool } from '../run-tool.js';
import { LineError, parseLine } from './lines.js';

export const BATCH_HINT =
  'Each line is {"id": "...", "tool": "<catalog id>", "request": {...}}; GET /api/examples holds a complete valid request for every tool.';

export interface LineRunDeps {
  runTool: RunTool;
  usage: UsageCounters;
  lineLimit: number;
}

export function receiptLine(id: string, receipt: string): string {
  return `{"id":${JSON.stringify(id)},"status":200,"receipt":${receipt}}\n`;
}

export function problemLine(id: string | null, problem: Problem): string {
  return `{"id":${JSON.stringify(id)},"status":${problem.status},"problem":${JSON.stringify(problem)}}\n`;
}

export function batchLineRunner(
  lines: readonly Buffer[],
  deps: LineRunDeps,
  log: FastifyBaseLogger,
): (index: number) => Promise<string> {
  return async (index) => {
    let id: string | null = null;
    let toolId: string | undefined;
    try {
      const line = parseLine(lines[index]!, deps.lineLimit);
      id = line.id;
      toolId = line.tool.id;
      const outcome = await deps.runTool(line.tool, line.request);
      if (!outcome.ok) {
        deps.usage.record(toolId, outcome.problem.status);
        return problemLine(id, outcome.problem);
      }
      deps.usage.record(toolId, 200, outcome.verdict);
      return receiptLine(id, outcome.body);
    } catch (err) {
      if (err instanceof LineError) return problemLine(err.id ?? id, { ...toProblem(err), hint: BATCH_HINT });
      const known = err instanceof AppError;
      if (!known) log.error({ err, line: index + 1 }, 'batch line failed');
      const problem: Problem = known
        ? toProblem(err)
        : {
            type: 'urn:problem:internal',
            title: 'Internal error',
            status: 500,
            detail: `The server failed to answer line ${index + 1}; the other lines are unaffected.`,
            code: 'internal',
          };
      if (toolId) deps.usage.record(toolId, problem.status);
      return problemLine(id, problem);
    }
  };
}
