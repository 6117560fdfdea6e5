/** Piscina task file: adapts a pool message to `executeTool`; nothing else lives here. */
import { Piscina } from 'piscina';
import { executeTool } from '../src/eval/execute.js';
import type { PooledOutcome, VerifierTask } from '../src/eval/pool.js';

export default function runVerifierTask(task: VerifierTask): PooledOutcome | ReturnType<typeof Piscina.move> {
  const outcome = executeTool(task.toolId, task.bytes);
  if (!outcome.ok) return outcome;
  const { bytes } = outcome;
  // Moved, not cloned: the event loop receives the receipt bytes without copying them. Only
  // a buffer owning its whole ArrayBuffer can move; a receipt under 4 KB may be a slice of
  // Node's shared small-buffer pool and is copied instead (cheaply, being small).
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) return outcome;
  return Piscina.move({
    [Piscina.transferableSymbol]: [bytes.buffer],
    [Piscina.valueSymbol]: outcome,
  } as unknown as ArrayBuffer);
}
