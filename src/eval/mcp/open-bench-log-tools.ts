/** The open-bench log's MCP tools, one per descriptor in open-bench/log/endpoints.ts: the HTTP answers as structured content. */
import { compileValidator } from '../../core/validation.js';
import { LOG_ENDPOINTS } from '../open-bench/log/endpoints.js';
import type { LogService } from '../open-bench/log/log-service.js';
import { asToolResult, jsonResult, plainSchema, type McpTool } from './mcp-tools.js';

export function openBenchLogMcpTools(service: LogService): McpTool[] {
  return LOG_ENDPOINTS.map((e) => {
    const valid = compileValidator(e.query);
    return {
      definition: {
        name: e.tool,
        title: e.title,
        description: `${e.description} Same as GET ${e.path}.`,
        inputSchema: plainSchema(e.query),
        annotations: { readOnlyHint: true },
      },
      call: (args) =>
        asToolResult(async () =>
          jsonResult(JSON.stringify(await e.run(service, valid.assert(args, 'arguments')))),
        ),
    };
  });
}
