/** POST /mcp (MCP over Streamable HTTP), 405 for its other methods, and the discovery manifest. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendProblem } from '../../core/error-handler.js';
import { AppError, toProblem } from '../../core/errors.js';
import { SERVICE_VERSION } from '../../core/receipt.js';
import { MCP_PROTOCOL_VERSIONS, MCP_SERVER_NAME, type McpEndpoint } from '../mcp/mcp-endpoint.js';

const HOW_TO_CALL =
  'POST JSON-RPC 2.0 messages to /mcp (Streamable HTTP, Accept: application/json, text/event-stream); the server is stateless and opens no event stream.';

export function mcpManifest(toolNames: readonly string[]): object {
  return {
    name: MCP_SERVER_NAME,
    version: SERVICE_VERSION,
    description: 'Verifier-grounded evaluation tools with deterministic, hash-sealed receipts.',
    endpoint: '/mcp',
    transport: { type: 'streamable-http', stateless: true, response: 'application/json' },
    protocol_versions: MCP_PROTOCOL_VERSIONS,
    authentication: 'none',
    tools: toolNames,
  };
}

export function registerMcpRoutes(
  app: FastifyInstance,
  endpoint: McpEndpoint,
  options: { bodyLimit: number; clientAddress: (request: FastifyRequest) => string },
): void {
  const { bodyLimit } = options;
  void app.register((scope, _opts, done) => {
    // Parsed here rather than by fastify so malformed JSON is a JSON-RPC parse error.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_req, body, parsed) =>
      parsed(null, body),
    );
    scope.post('/mcp', { bodyLimit }, async (request, reply) => {
      let message: unknown;
      try {
        message = JSON.parse(request.body as string);
      } catch (err) {
        return reply
          .code(400)
          .type('application/json')
          .send({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32700, message: `Parse error: ${(err as Error).message}` },
          });
      }
      const answer = await endpoint.handle(request.headers, message, {
        client: options.clientAddress(request),
      });
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });
    done();
  });
  const notAllowed = new AppError('method_not_allowed', HOW_TO_CALL, { headers: { allow: 'POST, OPTIONS' } });
  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/mcp',
      exposeHeadRoute: false,
      handler: (_request, reply) => sendProblem(reply, toProblem(notAllowed), notAllowed.headers),
    });
  }
  const manifest = JSON.stringify(mcpManifest(endpoint.toolNames));
  app.get('/.well-known/mcp.json', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(manifest),
  );
}
