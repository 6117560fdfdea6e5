/**
 * POST /mcp through the official SDK: a low-level `Server` and a web-standard Streamable
 * HTTP transport, stateless (no session id) with JSON responses, made per request as the SDK
 * prescribes for stateless servers. Unknown tool → JSON-RPC −32602.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_VERSION } from '../../core/receipt.js';
import type { McpCallContext, McpTool } from './mcp-tools.js';
import { TransportRequests, type ForwardedValues } from './transport-request.js';

export const MCP_SERVER_NAME = 'eval-tools';
export const MCP_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

export interface McpHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function jsonRpcError(id: unknown, code: number, message: string, data?: unknown): McpHttpAnswer {
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: id ?? null,
      error: { code, message, ...(data ? { data } : {}) },
    }),
  };
}

/**
 * The SDK answers an initialize with an unknown version by offering its latest one; this
 * service refuses it instead, naming the versions it speaks, so a misconfigured client
 * learns why rather than proceeding on a protocol it did not ask for.
 */
function unsupportedInitialize(body: unknown): McpHttpAnswer | undefined {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  for (const m of messages) {
    const msg = m as { method?: unknown; id?: unknown; params?: { protocolVersion?: unknown } } | null;
    if (msg?.method !== 'initialize') continue;
    const requested = msg.params?.protocolVersion;
    if (typeof requested === 'string' && !MCP_PROTOCOL_VERSIONS.includes(requested)) {
      return jsonRpcError(
        msg.id,
        ErrorCode.InvalidParams,
        `Unsupported protocol version ${JSON.stringify(requested)}; supported: ${MCP_PROTOCOL_VERSIONS.join(', ')}.`,
        { requested, supported: MCP_PROTOCOL_VERSIONS },
      );
    }
  }
  return undefined;
}

const sharedValidator = new AjvJsonSchemaValidator();

/** The member of a stand-in for structured content; its value is a random token per answer. */
export const SPLICE_KEY = '$eval-tools-splice';

function isStandIn(value: unknown): value is Record<typeof SPLICE_KEY, string> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Record<string, unknown>)[SPLICE_KEY] === 'string'
  );
}

/**
 * Puts each JSON text where the SDK serialised its stand-in. The SDK writes a one-member
 * object as `{"key":"value"}`; the token is random per answer, so no caller can forge one,
 * and a text written inside a string is escaped, so it cannot match. When the SDK wrote it
 * otherwise, the answer is parsed and rebuilt instead.
 */
export function splice(body: string, texts: ReadonlyMap<string, string>): string {
  let out = body;
  let missed = false;
  for (const [token, json] of texts) {
    const marker = JSON.stringify({ [SPLICE_KEY]: token });
    const at = out.indexOf(marker);
    if (at < 0) missed = true;
    else out = out.slice(0, at) + json + out.slice(at + marker.length);
  }
  if (!missed) return out;
  return JSON.stringify(JSON.parse(out), (_key, value: unknown): unknown =>
    isStandIn(value) && texts.has(value[SPLICE_KEY])
      ? (JSON.parse(texts.get(value[SPLICE_KEY])!) as unknown)
      : value,
  );
}

export class McpEndpoint {
  private readonly byName: Map<string, McpTool>;
  private readonly list: McpTool['definition'][];
  private readonly requests = new TransportRequests();

  constructor(tools: readonly McpTool[]) {
    this.byName = new Map(tools.map((t) => [t.definition.name, t]));
    this.list = tools.map((t) => t.definition);
  }

  get toolNames(): string[] {
    return this.list.map((t) => t.name);
  }

  private server(context: McpCallContext): Server {
    const server = new Server(
      { name: MCP_SERVER_NAME, version: SERVICE_VERSION },
      {
        // The SDK otherwise builds a new Ajv per Server, i.e. per request (it validates
        // elicitation answers, which this server never asks for).
        jsonSchemaValidator: sharedValidator,
        capabilities: { tools: { listChanged: false } },
        instructions:
          'Verifier-grounded evaluation tools. Each tool returns a deterministic receipt; GET /api/examples on this host holds a valid argument object for every verifier.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.list }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = this.byName.get(request.params.name);
      if (!tool) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(request.params.name)}; tools/list names the ${this.list.length} tools.`,
        );
      }
      return tool.call(request.params.arguments ?? {}, context);
    });
    return server;
  }

  /** One HTTP POST: `headers` as received (only FORWARDED_HEADERS are read), `body` already parsed. */
  async handle(headers: ForwardedValues, body: unknown, context: McpCallContext): Promise<McpHttpAnswer> {
    const refused = unsupportedInitialize(body);
    if (refused) return refused;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const texts = new Map<string, string>();
    const structured = (json: string): Record<string, unknown> => {
      const token = randomUUID();
      texts.set(token, json);
      return { [SPLICE_KEY]: token };
    };
    // Not closed afterwards: in JSON-response mode the Response exists only once every
    // handler of the message has settled, so nothing is left to abort, and the SDK's close
    // builds an McpError (a stack trace through the whole async chain) per request.
    await this.server({ ...context, structured }).connect(transport);
    const response = await transport.handleRequest(this.requests.for(headers), {
      parsedBody: body as JSONRPCMessage,
    });
    const out: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    const text = await response.text();
    return { status: response.status, headers: out, body: texts.size > 0 ? splice(text, texts) : text };
  }
}
