/**
 * Where a tool request runs: on the event loop when it is small enough that its declared worst
 * case stays within INLINE_BUDGET_MS, in the verifier pool otherwise. A pool round trip costs
 * more than a small request's whole work (docs/speed.md#small-requests-inline); a large one
 * would stall every other request.
 */
import type { ToolDefinition } from '../tool-definition.js';

/** The most event-loop time one inline request may take by its tool's declared worst case. */
export const INLINE_BUDGET_MS = 2;

/** The largest body `tool` may run inline: 0 for a tool whose cost the body does not bound. */
export function inlineLimitBytes(tool: Pick<ToolDefinition, 'costMsPerKiB'>, maxInlineBytes: number): number {
  if (tool.costMsPerKiB === null) return 0;
  return Math.min(maxInlineBytes, Math.floor((INLINE_BUDGET_MS / tool.costMsPerKiB) * 1024));
}
