/**
 * An SDK `Transport` that carries many HTTP requests to one long-lived `Server`. Each
 * JSON-RPC request gets a process-unique internal id on the way in, so requests of different
 * clients that reuse an id never meet inside the server's protocol state; the answer gets the
 * client's id back on the way out and settles that request's promise. No web `Request` or
 * `Response` is built: the endpoint answers fastify with the serialised messages itself.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export type JSONRPCAnswer = JSONRPCResultResponse | JSONRPCErrorResponse;

interface Pending<C> {
  clientId: RequestId;
  context: C;
  resolve: (answer: JSONRPCAnswer) => void;
}

export class MultiplexTransport<C> implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];

  private nextId = 0;
  private closed = false;
  private readonly pending = new Map<number, Pending<C>>();

  async start(): Promise<void> {}

  /** Answers every request still in flight (the server drops them when it closes), then closes. */
  close(): Promise<void> {
    this.closed = true;
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.resolve(closedAnswer(pending.clientId));
    }
    this.onclose?.();
    return Promise.resolve();
  }

  /** Hands one client request to the server; resolves with its answer, the client's id restored. */
  request(message: JSONRPCRequest, context: C): Promise<JSONRPCAnswer> {
    if (this.closed) return Promise.resolve(closedAnswer(message.id));
    const id = ++this.nextId;
    return new Promise<JSONRPCAnswer>((resolve) => {
      this.pending.set(id, { clientId: message.id, context, resolve });
      this.onmessage?.({ ...message, id });
    });
  }

  /** Hands a client notification to the server; nothing answers it. */
  notify(message: JSONRPCNotification): void {
    this.onmessage?.(message);
  }

  /** The caller's context of an in-flight request, by the internal id its handler sees. */
  contextOf(id: RequestId): C | undefined {
    return typeof id === 'number' ? this.pending.get(id)?.context : undefined;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  send(message: JSONRPCMessage): Promise<void> {
    // Only answers have somewhere to go: the server sends no requests or notifications of its
    // own (no sampling, no progress), and a stateless POST has no stream to carry them.
    if (
      !('id' in message) ||
      typeof message.id !== 'number' ||
      !('result' in message || 'error' in message)
    ) {
      return Promise.resolve();
    }
    const pending = this.pending.get(message.id);
    if (pending) {
      this.pending.delete(message.id);
      message.id = pending.clientId;
      pending.resolve(message);
    }
    return Promise.resolve();
  }
}

function closedAnswer(id: RequestId): JSONRPCErrorResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.ConnectionClosed, message: 'The server is closing.' },
  };
}
