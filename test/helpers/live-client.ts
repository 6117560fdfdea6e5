/**
 * A websocket client of GET /api/v1/events for tests and the benchmark: collects every message
 * and lets a test wait for one that matches (an event, never a sleep). No test-runner imports.
 */
import WebSocket from 'ws';

export interface LiveMessage {
  type: string;
  v: number;
  id?: string;
  at?: string;
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Closed {
  code: number;
  reason: string;
}

export class LiveClient {
  readonly messages: LiveMessage[] = [];
  readonly closed: Promise<Closed>;
  private waiters: { match: (m: LiveMessage) => boolean; resolve: (m: LiveMessage) => void }[] = [];
  private closedWith: Closed | undefined;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closedWith = { code, reason: reason.toString() };
        resolve(this.closedWith);
      });
    });
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      const m = JSON.parse((data as Buffer).toString('utf8')) as LiveMessage;
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(m)) return true;
        w.resolve(m);
        return false;
      });
    });
  }

  /** Opens the socket (resolves once open, or with the refusal's status). */
  static open(
    url: string,
    headers: Record<string, string> = {},
    options: WebSocket.ClientOptions = {},
  ): Promise<LiveClient | { status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { ...options, headers });
      const client = new LiveClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.once('error', reject);
    });
  }

  /** Opens and says hello (token and resume point); resolves with the server's hello. */
  static async connect(
    url: string,
    hello: { token?: string; last_id?: string },
    options: WebSocket.ClientOptions = {},
  ): Promise<LiveClient> {
    const client = await LiveClient.open(url, {}, options);
    if (!(client instanceof LiveClient)) throw new Error(`upgrade refused: ${client.status} ${client.body}`);
    client.send({ type: 'hello', v: 1, ...hello });
    const first = await Promise.race([client.next((m) => m.type === 'hello'), client.closed]);
    if (!('type' in first)) throw new Error(`closed before hello: ${String(first.code)} ${first.reason}`);
    return client;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message (already received or to come) matching; rejects if the socket closes first. */
  next(match: (m: LiveMessage) => boolean): Promise<LiveMessage> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      if (this.closedWith) {
        reject(new Error(`socket closed (${this.closedWith.code} ${this.closedWith.reason})`));
        return;
      }
      this.waiters.push({ match, resolve });
      void this.closed.then((c) => reject(new Error(`socket closed (${c.code} ${c.reason})`)));
    });
  }

  /** Events (messages with an id), in the order received. */
  events(): LiveMessage[] {
    return this.messages.filter((m) => m.id !== undefined);
  }

  /** Stops reading from the TCP socket: the server's sends pile up (a slow reader). */
  pause(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resume(): void {
    (this.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  close(): Promise<Closed> {
    this.ws.close(1000);
    return this.closed;
  }
}
