/** Piscina task file: adapts a pool message to `executeTool`; nothing else lives here. */
import { executeTool, type ToolOutcome } from '../src/eval/execute.js';
import type { VerifierTask } from '../src/eval/pool.js';

export default function runVerifierTask(task: VerifierTask): ToolOutcome {
  return executeTool(task.toolId, task.bytes);
}
