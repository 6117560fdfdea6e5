/**
 * POST /mcp through the official SDK: one low-level `Server` for the whole process, connected
 * once to a transport that multiplexes the HTTP requests (multiplex-transport.ts). Stateless
 * (no session id), JSON responses; the endpoint makes the Streamable HTTP transport's checks
 * itself and answers with the serialised messages. Unknown tool → JSON-RPC −32602.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  ErrorCode,
  isInitializeRequest,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppError } from '../../core/errors.js';
import { SERVICE_VERSION } from '../../core/receipt.js';
import type { McpCallContext, McpTool } from './mcp-tools.js';
import { MultiplexTransport, type JSONRPCAnswer } from './multiplex-transport.js';

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

/** The SDK's own answer to a method without a handler, code and message alike. */
function methodNotFound(): Error {
  return Object.assign(new Error('Method not found'), { code: ErrorCode.MethodNotFound });
}

/** `tools/call` params as the SDK's CallToolRequestParamsSchema requires them: a name, optional arguments. */
function callParams(params: unknown): { name: string; arguments?: Record<string, unknown> } {
  const p = params as { name?: unknown; arguments?: unknown } | undefined;
  if (typeof p?.name !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string.');
  }
  const args = p.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Invalid tools/call request: params.arguments must be an object.',
    );
  }
  return p as { name: string; arguments?: Record<string, unknown> };
}

/** The request headers the endpoint reads (a node request's `headers` object will do). */
export type McpHeaders = Readonly<Record<string, string | string[] | undefined>>;

const JSON_HEADERS = { 'content-type': 'application/json' };

/** An HTTP-level refusal, shaped as the SDK's Streamable HTTP transport shapes it. */
function httpError(status: number, code: number, message: string): McpHttpAnswer {
  return {
    status,
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
  };
}

/** Whether an Accept header admits application/json (absent: anything goes; q=0 refuses). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (type === 'application/json') return weight > 0; // the exact type outranks wildcards
    if (type === 'application/*' || type === '*/*') best = Math.max(best, weight);
  }
  return best > 0;
}

function header(headers: McpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The checks the SDK's Streamable HTTP transport makes on a POST before any message reaches
 * the server, with its statuses, codes and messages (Accept relaxed, above): Accept,
 * Content-Type, batch size, the JSON-RPC shape of each message, a lone initialize, and the
 * protocol version header.
 */
function checkPost(headers: McpHeaders, body: unknown): McpHttpAnswer | JSONRPCMessage[] {
  // Every answer is JSON (no stream is ever opened), so a client that takes JSON is enough;
  // the SDK's transport also demands text/event-stream, which refused curl and plain scripts.
  if (!acceptsJson(header(headers, 'accept'))) {
    return httpError(
      406,
      -32000,
      'Not Acceptable: Client must accept application/json (every answer is JSON; no event stream is opened)',
    );
  }
  if (!isJsonContentType(header(headers, 'content-type'))) {
    return httpError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const raw = Array.isArray(body) ? (body as unknown[]) : [body];
  if (raw.length > MAX_BATCH_SIZE) {
    return httpError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  }
  const messages: JSONRPCMessage[] = [];
  for (const m of raw) {
    const parsed = JSONRPCMessageSchema.safeParse(m);
    if (!parsed.success) return httpError(400, -32700, 'Parse error: Invalid JSON-RPC message');
    messages.push(parsed.data);
  }
  const initializing = messages.some(
    (m) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m),
  );
  if (initializing && messages.length > 1) {
    return httpError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  }
  const version = header(headers, 'mcp-protocol-version');
  if (!initializing && version !== undefined && !MCP_PROTOCOL_VERSIONS.includes(version)) {
    return httpError(
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${MCP_PROTOCOL_VERSIONS.join(', ')})`,
    );
  }
  return messages;
}

/**
 * Charges `calls` tool calls of one POST beyond the first (the POST itself paid for that one, in
 * the same bucket): how many may run, and the refusal of the others.
 */
type ChargeCalls = (calls: number) => Promise<{ lines: number; refused?: AppError }>;

function isToolCall(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message && message.method === 'tools/call';
}

/** A call past the client's rate limit: a JSON-RPC error in its place, the 429 problem's facts as data. */
function refusedCall(message: JSONRPCRequest, refused: AppError): JSONRPCAnswer {
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: -32000, message: refused.message, data: { status: refused.status, ...refused.extra } },
  };
}

/** The tool calls of a batch that may run: the first (paid by the POST), then what `charge` grants. */
async function admittedCalls(
  messages: readonly JSONRPCMessage[],
  charge: ChargeCalls | undefined,
): Promise<{ admitted: Set<JSONRPCMessage>; refused?: AppError }> {
  const calls = messages.filter(isToolCall);
  if (!charge || calls.length <= 1) return { admitted: new Set(calls) };
  const { lines, refused } = await charge(calls.length - 1);
  return { admitted: new Set(calls.slice(0, 1 + lines)), ...(refused ? { refused } : {}) };
}

export class McpEndpoint {
  private readonly byName: Map<string, McpTool>;
  private readonly list: McpTool['definition'][];
  private readonly transport = new MultiplexTransport<McpCallContext>();
  private readonly server: Server;
  private readonly connected: Promise<void>;
  private ready = false;

  constructor(tools: readonly McpTool[]) {
    this.byName = new Map(tools.map((t) => [t.definition.name, t]));
    this.list = tools.map((t) => t.definition);
    this.server = this.build();
    // The server is connected once; past that an await per POST would only cost a microtask.
    this.connected = this.server.connect(this.transport).then(() => {
      this.ready = true;
    });
  }

  get toolNames(): string[] {
    return this.list.map((t) => t.name);
  }

  /**
   * One server for every client. It keeps no per-client state that shapes an answer: the
   * initialize result is computed from that request alone (the client capabilities it records
   * serve only server-to-client requests, which this server never makes).
   */
  private build(): Server {
    const server = new Server(
      { name: MCP_SERVER_NAME, version: SERVICE_VERSION },
      {
        capabilities: { tools: { listChanged: false } },
        instructions:
          'Verifier-grounded evaluation tools. Each tool returns a deterministic receipt; GET /api/examples on this host holds a valid argument object for every verifier.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.list }));
    // tools/call goes through the fallback handler: the SDK's registered one parses the request
    // twice with zod and the result once more (docs/mcp.md, "Speed"), for params this checks
    // below and results this code builds typed.
    server.fallbackRequestHandler = (request, extra) => {
      if (request.method !== 'tools/call') return Promise.reject(methodNotFound());
      const params = callParams(request.params);
      const tool = this.byName.get(params.name);
      if (!tool) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(params.name)}; tools/list names the ${this.list.length} tools.`,
        );
      }
      const context = this.transport.contextOf(extra.requestId);
      if (!context) throw new McpError(ErrorCode.InternalError, 'No caller for this request.');
      // The SDK answers only an Error (or an McpError); anything else thrown would leave the POST unanswered.
      return tool.call(params.arguments ?? {}, context).catch((err: unknown) => {
        throw err instanceof Error ? err : new Error(`The tool failed: ${String(err)}`);
      });
    };
    return server;
  }

  /** One HTTP POST: `headers` as received, `body` already parsed; `charge` absent when rate limits are off. */
  async handle(
    headers: McpHeaders,
    body: unknown,
    context: McpCallContext,
    charge?: ChargeCalls,
  ): Promise<McpHttpAnswer> {
    const unsupported = unsupportedInitialize(body);
    if (unsupported) return unsupported;
    const checked = checkPost(headers, body);
    if (!Array.isArray(checked)) return checked;
    if (!this.ready) await this.connected;
    const texts = new Map<string, string>();
    const callContext: McpCallContext = {
      ...context,
      structured: (json) => {
        const token = randomUUID();
        texts.set(token, json);
        return { [SPLICE_KEY]: token };
      },
    };
    const { admitted, refused } = await admittedCalls(checked, charge);
    const answers: Promise<JSONRPCAnswer>[] = [];
    for (const message of checked) {
      if (!('method' in message)) continue; // a client's answer: the server asks nothing
      if ('id' in message) {
        const past = refused && message.method === 'tools/call' && !admitted.has(message);
        answers.push(
          past
            ? Promise.resolve(refusedCall(message, refused))
            : this.transport.request(message, callContext),
        );
      }
      // A cancel names the client's id, which a shared server cannot tell apart from another
      // client's; a stateless POST is answered whole anyway.
      else if (message.method !== 'notifications/cancelled') this.transport.notify(message);
    }
    if (answers.length === 0) return { status: 202, headers: {}, body: '' };
    // One request, one answer object; a batch's answers as an array (as the SDK's transport).
    const text = JSON.stringify(answers.length === 1 ? await answers[0] : await Promise.all(answers));
    return { status: 200, headers: JSON_HEADERS, body: texts.size > 0 ? splice(text, texts) : text };
  }
}
