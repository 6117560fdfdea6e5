/**
 * The verifier tools, in catalog order. Each tool folder exports its definition; adding a
 * tool is one import and one entry here.
 */
import type { ToolDefinition } from './tool-definition.js';
import { counterexampleTool } from './tools/counterexample/definition.js';
import { gateTool } from './tools/gate/definition.js';
import { healthReportTool } from './tools/health-report/definition.js';
import { inspectTool } from './tools/inspect/definition.js';
import { leakageTool } from './tools/leakage/definition.js';
import { memoryTool } from './tools/memory/definition.js';
import { replayTool } from './tools/replay/definition.js';
import { safepatchTool } from './tools/safepatch/definition.js';

export const TOOLS: readonly ToolDefinition[] = [
  counterexampleTool,
  gateTool,
  healthReportTool,
  inspectTool,
  leakageTool,
  memoryTool,
  replayTool,
  safepatchTool,
];

const byId = new Map(TOOLS.map((t) => [t.id, t]));

export function getTool(id: string): ToolDefinition {
  const tool = byId.get(id);
  if (!tool) throw new Error(`unknown tool id ${id}`);
  return tool;
}
