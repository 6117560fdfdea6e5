/** Piscina task file: adapts a pool message to `executeTool`; nothing else lives here. */
import { workerData } from 'piscina';
import { executeTool, type ToolOutcome } from '../src/eval/execute.js';
import type { VerifierTask, VerifierWorkerData } from '../src/eval/speed/pool.js';
import { useKernel } from '../src/eval/speed/graph-kernel.js';

// The graph kernel the service resolved once at start-up.
useKernel((workerData as VerifierWorkerData).graphKernel);

export default function runVerifierTask(task: VerifierTask): ToolOutcome {
  return executeTool(task.toolId, task.bytes);
}
