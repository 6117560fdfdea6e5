/**
 * The MCP tools: the registry's verifiers (then the report card and the open bench), in a fixed
 * order, each with the JSON schema its HTTP endpoint validates with. A tool call runs exactly
 * what the HTTP route runs, so the receipt text is byte-for-byte the HTTP body.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TSchema } from 'typebox';
import { AppError, toProblem, type Problem } from '../../core/errors.js';
import type { ToolOutcome } from '../execute.js';
import { TOOLS } from '../registry.js';
import type { RunTool } from '../speed/run-tool.js';
import type { UsageCounters } from '../repositories/usage-counters.js';

export interface McpCallContext {
  /** The caller's address, as the HTTP routes resolve it (per-client limits). */
  client: string;
  /**
   * Stands in for a JSON text's parsed value as structured content; the endpoint splices the
   * text itself into the serialised answer (mcp-endpoint.ts), so a receipt is never parsed back.
   */
  structured?: (json: string) => Record<string, unknown>;
}

export interface McpTool {
  definition: Tool;
  call(args: Record<string, unknown>, context: McpCallContext): Promise<CallToolResult>;
}

/** TypeBox schemas carry symbol keys; JSON round-tripping leaves plain JSON Schema. */
export function plainSchema(schema: TSchema): Tool['inputSchema'] {
  return JSON.parse(JSON.stringify(schema)) as Tool['inputSchema'];
}

/** A problem as a tool result: the messages for the model, the problem itself as data. */
export function problemResult(problem: Problem): CallToolResult {
  const lines = [problem.detail, ...(problem.errors ?? []).map((e) => `${e.path || '/'}: ${e.message}`)];
  if (typeof problem.hint === 'string') lines.push(problem.hint);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], structuredContent: problem };
}

/** A JSON answer as a tool result: its text as content, the same value as structured content. */
export function jsonResult(text: string, context?: McpCallContext): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent: context?.structured?.(text) ?? (JSON.parse(text) as Record<string, unknown>),
  };
}

/** Runs `fn`, turning a 4xx AppError into an `isError` result; anything else propagates. */
export async function asToolResult(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) return problemResult(toProblem(err));
    throw err;
  }
}

export interface VerifierToolDeps {
  /** The HTTP routes' runner: same placement, same receipts. */
  runTool: RunTool;
  usage: UsageCounters;
}

export function verifierMcpTools(deps: VerifierToolDeps): McpTool[] {
  return TOOLS.map((tool) => {
    return {
      definition: {
        name: tool.id,
        title: tool.name,
        description: `${tool.promise} Same request as ${tool.method} ${tool.path}; returns the receipt.`,
        inputSchema: plainSchema(tool.schema),
      },
      call: (args, context) =>
        asToolResult(async () => {
          const bytes = Buffer.from(JSON.stringify(args), 'utf8');
          const outcome: ToolOutcome = await deps.runTool(tool, bytes);
          deps.usage.record(
            tool.id,
            outcome.ok ? 200 : outcome.problem.status,
            outcome.ok ? outcome.verdict : undefined,
          );
          return outcome.ok ? jsonResult(outcome.body, context) : problemResult(outcome.problem);
        }),
    };
  });
}
