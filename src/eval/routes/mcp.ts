/** POST /mcp (MCP over Streamable HTTP), 405 for its other methods, and the discovery manifest. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeUtf8Body } from '../../core/json-bodies.js';
import { lineAdmission, type BatchLimiter } from '../batch/admission.js';
import { SERVICE_VERSION } from '../../core/receipt.js';
import { firstTooDeep, MAX_JSON_DEPTH, tooDeepMessage } from '../speed/json-depth.js';
import type { McpHostCheck } from '../mcp/dns-rebinding.js';
import { MCP_PROTOCOL_VERSIONS, MCP_SERVER_NAME, type McpEndpoint } from '../mcp/mcp-endpoint.js';

const HOW_TO_CALL =
  'POST JSON-RPC 2.0 messages to /mcp (Streamable HTTP, Accept: application/json); the server is stateless and opens no event stream.';

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

function sendRpcError(reply: FastifyReply, status: number, id: unknown, code: number, message: string) {
  return reply
    .code(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });
}

/** The id of a message (the first of a batch) when it is one JSON-RPC allows; else null. */
function idOf(message: unknown): unknown {
  const first: unknown = Array.isArray(message) ? message[0] : message;
  const id = (first as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export function registerMcpRoutes(
  app: FastifyInstance,
  endpoint: McpEndpoint,
  options: {
    bodyLimit: number;
    clientAddress: (request: FastifyRequest) => string;
    hostCheck: McpHostCheck;
    /** The batch route's limiter: a batch's tool calls are charged as its lines are; absent when limits are off. */
    limiter?: BatchLimiter;
  },
): void {
  const { bodyLimit, hostCheck } = options;
  void app.register((scope, _opts, done) => {
    // DNS rebinding: a foreign Host or Origin is refused before the body is read.
    scope.addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin;
      const refused = hostCheck.refusal(request.headers.host, origin, request.raw.socket.remoteAddress);
      if (refused) return sendRpcError(reply, 403, null, -32000, refused);
    });
    // Parsed here rather than by fastify so malformed JSON is a JSON-RPC parse error.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_req, body, parsed) =>
      parsed(null, body),
    );
    scope.post('/mcp', { bodyLimit }, async (request, reply) => {
      let text: string;
      let message: unknown;
      try {
        // Refused as REST refuses it, never replaced by U+FFFD and run.
        text = decodeUtf8Body(request.body as Buffer);
      } catch (err) {
        return sendRpcError(reply, 400, null, -32700, `Parse error: ${(err as Error).message}`);
      }
      try {
        message = JSON.parse(text);
      } catch (err) {
        return sendRpcError(reply, 400, null, -32700, `Parse error: ${(err as Error).message}`);
      }
      // Tool arguments get REST's depth limit (the envelope adds message, params and, in a
      // batch, the array); deeper, serialising them would overflow the stack.
      const at = firstTooDeep(text, MAX_JSON_DEPTH + (Array.isArray(message) ? 3 : 2));
      if (at >= 0) return sendRpcError(reply, 200, idOf(message), -32602, tooDeepMessage(at));
      const admission = options.limiter ? lineAdmission(options.limiter, request) : undefined;
      const answer = await endpoint.handle(
        request.headers,
        message,
        { client: options.clientAddress(request) },
        admission?.atMost,
      );
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });
    // The SDK's stateless transport answers these with a JSON-RPC 405 too; this one says how to call.
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
      scope.route({
        method,
        url: '/mcp',
        exposeHeadRoute: false,
        handler: (_request, reply) =>
          sendRpcError(
            reply.header('allow', 'POST, OPTIONS'),
            405,
            null,
            -32000,
            `Method not allowed: ${HOW_TO_CALL}`,
          ),
      });
    }
    done();
  });
  const manifest = JSON.stringify(mcpManifest(endpoint.toolNames));
  app.get('/.well-known/mcp.json', (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(manifest),
  );
}
