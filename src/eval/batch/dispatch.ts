/**
 * Groups a batch's lines into the units the stream dispatches. A run of consecutive lines that
 * would each run inline (run-tool.ts) becomes one chunk (chunk.ts), sized so its lines' declared
 * worst case stays within CHUNK_BUDGET_MS and the batch spreads over the threads. Chunks run on
 * the event loop, one at a time, in slices of INLINE_BUDGET_MS with a turn of the loop between
 * them; with EVAL_BATCH_CHUNKS=pool they go to the pool threads only (the pool has a thread per
 * core: a chunk on the event loop beside them took no more CPU, only the loop's time). A line bound for the pool anyway, or a lone small
 * line, is a unit of its own; a run of bad lines is one unit.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Verdict } from '../../core/receipt.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import type { RunTool, RunsInline } from '../speed/run-tool.js';
import { failureProblem, problemLine } from './answer.js';
import { INLINE_BUDGET_MS } from '../speed/placement.js';
import { runChunk, type ChunkResult, type ChunkTask } from './chunk.js';
import { LineError } from '../errors.js';
import { parseLine, type ParsedLine } from './lines.js';
import { badLineAnswers, lineRunner } from './run-line.js';
import type { BatchUnit } from './stream.js';

/** A chunk's lines may declare at most this much work: the time it holds a pool thread. */
export const CHUNK_BUDGET_MS = 100;
export const CHUNK_MAX_LINES = 256;
/** Bad lines answered in one unit: a few µs each, so one unit stays well under a slice of the loop. */
const BAD_LINES_MAX = 64;

export interface DispatchDeps {
  runTool: RunTool;
  runsInline: RunsInline;
  /** Runs a chunk on a pool thread (workers/batch-chunk.ts). */
  runChunk: (task: ChunkTask) => Promise<ChunkResult>;
  poolSize: number;
  /** Chunks go to the pool threads (EVAL_BATCH_CHUNKS=pool), not the event loop. */
  poolChunks: boolean;
  usage: UsageCounters;
  lineLimit: number;
}

export function batchDispatcher(
  lines: readonly Buffer[],
  deps: DispatchDeps,
  log: FastifyBaseLogger,
): (from: number, most: number, stopped: AbortSignal) => BatchUnit {
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
  // Inline chunks run one after another (interleaved, each would add its slice to every turn of
  // the loop): how many are running or waiting, and the last one's end.
  let inline = 0;
  let inlineTail: Promise<unknown> = Promise.resolve();

  const badLineAnswer = badLineAnswers();
  // A run of unreadable lines is one unit: their answers cost microseconds, a unit each cost more.
  const badLines = (first: LineError, from: number, most: number): BatchUnit => {
    let text = badLineAnswer(first);
    let count = 1;
    while (count < most && from + count < lines.length) {
      const next = parsed(from + count);
      if (!(next instanceof LineError)) {
        lookahead = { index: from + count, line: next };
        break;
      }
      text += badLineAnswer(next);
      count++;
    }
    return { lines: count, text: Promise.resolve(text) };
  };

  return (from, most, stopped) => {
    const first = parsed(from);
    // Enough chunks to keep every thread busy twice over, as the batch's remaining lines allow.
    const threads = deps.poolChunks ? deps.poolSize : 1;
    const spread = Math.ceil((lines.length - from) / (2 * threads));
    if (first instanceof LineError) return badLines(first, from, Math.min(most, BAD_LINES_MAX));
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
    if (!deps.poolChunks) {
      const run = (): Promise<Uint8Array> => runInlineChunk(chunk, from, deps, log, stopped);
      const text = (inline > 0 ? inlineTail.then(run) : run()).finally(() => {
        inline--;
      });
      inline++;
      inlineTail = text.catch(() => undefined);
      return { lines: chunk.length, text };
    }
    return { lines: chunk.length, text: runPooledChunk(chunk, from, deps, log) };
  };
}

function declaredMs(line: ParsedLine): number {
  return (line.request.byteLength / 1024) * (line.tool.costMsPerKiB ?? CHUNK_BUDGET_MS);
}

function chunkTask(chunk: readonly ParsedLine[], from: number): ChunkTask {
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
  return {
    bytes,
    tools: chunk.map((l) => l.tool.id),
    ids: chunk.map((l) => l.id),
    ends,
    firstLine: from + 1,
  };
}

function record(
  result: ChunkResult,
  chunk: readonly ParsedLine[],
  deps: DispatchDeps,
  log: FastifyBaseLogger,
): void {
  for (let i = 0; i < chunk.length; i++) {
    const status = result.statuses[i]!;
    const verdict: Verdict | null = result.verdicts[i] ?? null;
    if (verdict) deps.usage.record(chunk[i]!.tool.id, status, verdict);
    else deps.usage.record(chunk[i]!.tool.id, status);
  }
  for (const f of result.failures) log.error({ err: f.message, line: f.line }, 'batch line failed');
}

async function runPooledChunk(
  chunk: ParsedLine[],
  from: number,
  deps: DispatchDeps,
  log: FastifyBaseLogger,
): Promise<string | Uint8Array> {
  let result: ChunkResult;
  try {
    result = await deps.runChunk(chunkTask(chunk, from));
  } catch (err) {
    // The thread failed as a whole (it was stopped, or died): each of its lines says so.
    const problems = chunk.map((_, i) => failureProblem(err, from + 1 + i));
    if (problems[0]!.status === 500)
      log.error({ err, lines: `${from + 1}-${from + chunk.length}` }, 'batch chunk failed');
    chunk.forEach((line, i) => deps.usage.record(line.tool.id, problems[i]!.status));
    return chunk.map((line, i) => problemLine(line.id, problems[i]!)).join('');
  }
  record(result, chunk, deps, log);
  return result.bytes;
}

/** A chunk on the event loop: slices of at most INLINE_BUDGET_MS declared, a turn of the loop between them. */
async function runInlineChunk(
  chunk: ParsedLine[],
  from: number,
  deps: DispatchDeps,
  log: FastifyBaseLogger,
  stopped: AbortSignal,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  // A client gone between slices stops the rest: none of it would be sent.
  for (let i = 0; i < chunk.length && !stopped.aborted;) {
    let j = i + 1;
    let ms = declaredMs(chunk[i]!);
    while (j < chunk.length && ms + declaredMs(chunk[j]!) <= INLINE_BUDGET_MS) ms += declaredMs(chunk[j++]!);
    const slice = chunk.slice(i, j);
    const result = runChunk(chunkTask(slice, from + i));
    record(result, slice, deps, log);
    parts.push(result.bytes);
    i = j;
    if (i < chunk.length) await nextTurn();
  }
  return Buffer.concat(parts);
}
