/**
 * A chunk: consecutive small batch lines run one after another (in slices on the event loop, or
 * in a pool thread), so one hand-off is shared by many lines, each less work than a round trip
 * (docs/speed.md#small-batch-lines-in-chunks). Each line runs through `executeTool`, as a single
 * call does, so its receipt is the same bytes. Pure: the task file only adapts it.
 */
import type { Verdict } from '../../core/receipt.js';
import { executeTool } from '../execute.js';
import { failureProblem, problemLine, RECEIPT_LINE_END, receiptLineStart } from './answer.js';

export interface ChunkTask {
  /** The lines' request bytes, back to back. */
  bytes: Uint8Array;
  /** Per line: its tool, its answer id, where its request ends in `bytes`. */
  tools: string[];
  ids: string[];
  ends: number[];
  /** The first line's number in the batch (1-based), for problem details. */
  firstLine: number;
}

export interface ChunkResult {
  /**
   * The answer lines, in order, as UTF-8 in a buffer of its own: moved to the event loop, not
   * copied, and written to the socket as it is (a string would be copied out, copied in and
   * encoded there).
   */
  bytes: Uint8Array;
  /** Per line, for the tool stats. */
  statuses: number[];
  verdicts: (Verdict | null)[];
  /** Lines whose run threw an unknown error (answered as 500), for the service log. */
  failures: { line: number; message: string }[];
}

export function runChunk(task: ChunkTask): ChunkResult {
  const parts: string[] = [];
  const statuses: number[] = [];
  const verdicts: (Verdict | null)[] = [];
  const failures: ChunkResult['failures'] = [];
  let start = 0;
  for (let i = 0; i < task.tools.length; i++) {
    const id = task.ids[i]!;
    const end = task.ends[i]!;
    try {
      const outcome = executeTool(task.tools[i]!, task.bytes.subarray(start, end));
      if (outcome.ok) {
        parts.push(receiptLineStart(id), outcome.body, RECEIPT_LINE_END);
        statuses.push(200);
        verdicts.push(outcome.verdict ?? null);
      } else {
        parts.push(problemLine(id, outcome.problem));
        statuses.push(outcome.problem.status);
        verdicts.push(null);
      }
    } catch (err) {
      const problem = failureProblem(err, task.firstLine + i);
      if (problem.status === 500)
        failures.push({ line: task.firstLine + i, message: (err as Error).stack ?? String(err) });
      parts.push(problemLine(id, problem));
      statuses.push(problem.status);
      verdicts.push(null);
    }
    start = end;
  }
  return { bytes: utf8(parts), statuses, verdicts, failures };
}

/** The parts' UTF-8 back to back, each encoded once, in a buffer that owns its memory. */
function utf8(parts: readonly string[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const part of parts) at += out.write(part, at);
  return out;
}
