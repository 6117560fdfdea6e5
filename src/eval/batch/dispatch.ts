/**
 * Groups a batch's lines into the units the stream dispatches. A run of consecutive lines that
 * would each run inline (run-tool.ts) becomes one chunk for a pool thread (chunk.ts), sized so
 * its lines' declared worst case stays within CHUNK_BUDGET_MS and the batch spreads over the
 * pool; a line bound for the pool anyway, a bad line, or a lone small line is a unit of its own.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Verdict } from '../../core/receipt.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import type { RunTool, RunsInline } from '../run-tool.js';
import { failureProblem, problemLine } from './answer.js';
import type { ChunkResult, ChunkTask } from './chunk.js';
import { LineError, parseLine, type ParsedLine } from './lines.js';
import { lineRunner } from './run-line.js';
import type { BatchUnit } from './stream.js';

/** A chunk's lines may declare at most this much work: the time it holds a pool thread. */
export const CHUNK_BUDGET_MS = 25;
export const CHUNK_MAX_LINES = 256;

export interface DispatchDeps {
  runTool: RunTool;
  runsInline: RunsInline;
  /** Runs a chunk on a pool thread (workers/batch-chunk.ts). */
  runChunk: (task: ChunkTask) => Promise<ChunkResult>;
  poolSize: number;
  usage: UsageCounters;
  lineLimit: number;
}

export function batchDispatcher(
  lines: readonly Buffer[],
  deps: DispatchDeps,
  log: FastifyBaseLogger,
): (from: number, most: number) => BatchUnit {
  const runLine = lineRunner(deps, log);
  // The line that ended the previous chunk, parsed already.
  let lookahead: { index: number; line: ParsedLine | LineError } | undefined;
  const parsed = (index: number): ParsedLine | LineError => {
    if (lookahead?.index === index) return lookahead.line;
    try {
      return parseLine(lines[index]!, deps.lineLimit);
    } catch (err) {
      if (err instanceof LineError) return err;
      throw err;
    }
  };
  const chunkable = (line: ParsedLine | LineError): line is ParsedLine =>
    !(line instanceof LineError) && deps.runsInline(line.tool, line.request.byteLength);
  const declaredMs = (line: ParsedLine): number =>
    (line.request.byteLength / 1024) * (line.tool.costMsPerKiB ?? CHUNK_BUDGET_MS);

  return (from, most) => {
    const first = parsed(from);
    // Enough chunks to keep every thread busy twice over, as the batch's remaining lines allow.
    const spread = Math.ceil((lines.length - from) / (2 * deps.poolSize));
    const target = Math.min(most, CHUNK_MAX_LINES, spread);
    if (!chunkable(first) || target < 2) return { lines: 1, text: runLine(first, from) };
    const chunk: ParsedLine[] = [first];
    let ms = declaredMs(first);
    while (chunk.length < target && from + chunk.length < lines.length) {
      const index = from + chunk.length;
      const next = parsed(index);
      if (!chunkable(next) || ms + declaredMs(next) > CHUNK_BUDGET_MS) {
        lookahead = { index, line: next };
        break;
      }
      chunk.push(next);
      ms += declaredMs(next);
    }
    if (chunk.length === 1) return { lines: 1, text: runLine(first, from) };
    return { lines: chunk.length, text: runChunkUnit(chunk, from, deps, log) };
  };
}

async function runChunkUnit(
  chunk: ParsedLine[],
  from: number,
  deps: DispatchDeps,
  log: FastifyBaseLogger,
): Promise<string | Uint8Array> {
  let size = 0;
  for (const line of chunk) size += line.request.byteLength;
  // A fresh buffer: a view into the body would clone the whole body across the thread boundary.
  const bytes = new Uint8Array(size);
  const ends: number[] = [];
  let at = 0;
  for (const line of chunk) {
    bytes.set(line.request, at);
    at += line.request.byteLength;
    ends.push(at);
  }
  const task: ChunkTask = {
    bytes,
    tools: chunk.map((l) => l.tool.id),
    ids: chunk.map((l) => l.id),
    ends,
    firstLine: from + 1,
  };
  let result: ChunkResult;
  try {
    result = await deps.runChunk(task);
  } catch (err) {
    // The thread failed as a whole (it was stopped, or died): each of its lines says so.
    const problems = chunk.map((_, i) => failureProblem(err, from + 1 + i));
    if (problems[0]!.status === 500)
      log.error({ err, lines: `${from + 1}-${from + chunk.length}` }, 'batch chunk failed');
    chunk.forEach((line, i) => deps.usage.record(line.tool.id, problems[i]!.status));
    return chunk.map((line, i) => problemLine(line.id, problems[i]!)).join('');
  }
  for (let i = 0; i < chunk.length; i++) {
    const status = result.statuses[i]!;
    const verdict: Verdict | null = result.verdicts[i] ?? null;
    if (verdict) deps.usage.record(chunk[i]!.tool.id, status, verdict);
    else deps.usage.record(chunk[i]!.tool.id, status);
  }
  for (const f of result.failures) log.error({ err: f.message, line: f.line }, 'batch line failed');
  return result.bytes;
}
