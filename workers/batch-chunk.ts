/** Piscina task file of batch chunks: adapts a pool message to `runChunk`; nothing else lives here. */
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';
import { runChunk, type ChunkResult, type ChunkTask } from '../src/eval/batch/chunk.js';
import type { VerifierWorkerData } from '../src/eval/speed/pool.js';
import { useKernel } from '../src/eval/speed/graph-kernel.js';

// The graph kernel the service resolved once at start-up, as workers/verifier.ts sets it.
useKernel((workerData as VerifierWorkerData).graphKernel);

/** The answer bytes' buffer is moved to the event loop, not copied. */
export default function runBatchChunk(task: ChunkTask): object {
  const result: ChunkResult = runChunk(task);
  return move({ [transferableSymbol]: [result.bytes.buffer], [valueSymbol]: result });
}
