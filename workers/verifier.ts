/** Piscina task file: adapts a pool message to `executeTool`; nothing else lives here. */
import { Piscina } from 'piscina';
import { executeTool } from '../src/eval/execute.js';
import type { PooledOutcome, VerifierTask } from '../src/eval/pool.js';

export default function runVerifierTask(task: VerifierTask): PooledOutcome | ReturnType<typeof Piscina.move> {
  const outcome = executeTool(task.toolId, task.bytes);
  if (!outcome.ok) return outcome;
  const bytes = Buffer.from(outcome.body, 'utf8');
  const result: PooledOutcome = {
    ok: true,
    bytes,
    status: outcome.status,
    ...(outcome.verdict ? { verdict: outcome.verdict } : {}),
  };
  // Encoded here and moved: the event loop receives the bytes without copying them. Buffers
  // this large own their ArrayBuffer (they are not slices of Node's small-buffer pool).
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) return result;
  return Piscina.move({
    [Piscina.transferableSymbol]: [bytes.buffer],
    [Piscina.valueSymbol]: result,
  } as unknown as ArrayBuffer);
}
