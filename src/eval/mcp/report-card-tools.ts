/** The report card's two MCP tools: the HTTP request schemas, the HTTP answers as structured content. */
import { compileValidator } from '../../core/validation.js';
import type { ReportCardService } from '../report-card/report-card-service.js';
import { ReportCardSubmitRequest, StartRequest } from '../report-card/schemas.js';
import { asToolResult, jsonResult, plainSchema, type McpTool } from './mcp-tools.js';

const validStart = compileValidator(StartRequest);
const validSubmit = compileValidator(ReportCardSubmitRequest);

export function reportCardMcpTools(service: ReportCardService): McpTool[] {
  return [
    {
      definition: {
        name: 'report_card_start',
        title: 'Report card: start',
        description:
          'Starts a one-shot report-card session (15 minutes): six conjecture-repair items about greedy colouring and a minimum-degree independent-set heuristic. Same as POST /api/report-card/start.',
        inputSchema: plainSchema(StartRequest),
      },
      call: (args, context) =>
        asToolResult(async () =>
          jsonResult(JSON.stringify(await service.start(validStart.assert(args), context.client))),
        ),
    },
    {
      definition: {
        name: 'report_card_submit',
        title: 'Report card: submit',
        description:
          'Grades the answers of a report-card session once and returns the Ed25519-signed result (keys at /.well-known/receipt-keys.json). Same as POST /api/report-card/submit.',
        inputSchema: plainSchema(ReportCardSubmitRequest),
      },
      call: (args) =>
        asToolResult(async () => jsonResult(JSON.stringify(await service.submit(validSubmit.assert(args))))),
    },
  ];
}
