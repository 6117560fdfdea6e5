/**
 * The one place that decides where a tool request runs: inline on the event loop when its body
 * is within the tool's inline limit (placement.ts), otherwise through the pool interface (the
 * local Piscina pool, or whatever VERIFY_MODE puts behind it). The HTTP route, MCP and the
 * batch endpoint all call this, so a receipt is the same bytes whichever way it was asked for.
 */
import { executeTool, type ToolOutcome } from '../execute.js';
import { inlineLimitBytes } from './placement.js';
import type { VerifierPool } from './pool.js';
import type { ToolDefinition } from '../tool-definition.js';

export type RunTool = (tool: ToolDefinition, bytes: Uint8Array) => Promise<ToolOutcome>;

/** Whether a body of `byteLength` bytes for `tool` is small enough to run on the event loop. */
export type RunsInline = (tool: ToolDefinition, byteLength: number) => boolean;

export function inlinePlacement(inlineMaxBytes: number): RunsInline {
  const limits = new Map<string, number>();
  return (tool, byteLength) => {
    let inlineMax = limits.get(tool.id);
    if (inlineMax === undefined) {
      inlineMax = inlineLimitBytes(tool, inlineMaxBytes);
      limits.set(tool.id, inlineMax);
    }
    return byteLength <= inlineMax;
  };
}

export function toolRunner(pool: VerifierPool, runsInline: RunsInline): RunTool {
  return async (tool, bytes) =>
    runsInline(tool, bytes.byteLength) ? executeTool(tool.id, bytes) : pool.run(tool.id, bytes);
}
