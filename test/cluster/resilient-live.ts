/**
 * A live-updates client as the player behaves: when it hears nothing for two heartbeat intervals
 * (or the socket closes) it reconnects through the load balancer, resuming with the last id.
 */
import { LiveClient, type LiveMessage } from '../helpers/live-client.js';

export class ResilientLive {
  readonly events: LiveMessage[] = [];
  reconnects = 0;
  resyncs = 0;
  /** Why reconnection attempts failed (e.g. "upgrade refused: 429 ..."), for the report. */
  readonly failures: string[] = [];
  private client?: LiveClient;
  private heard = Date.now();
  private stopped = false;
  private watchdog?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly heartbeatSeconds: number,
    private readonly ca: string,
    /** The address it connects from (a person of its own for nginx's per-address limits). */
    private readonly localAddress: string,
  ) {}

  async start(): Promise<void> {
    await this.connect();
    this.watchdog = setInterval(() => {
      if (Date.now() - this.heard > 2 * this.heartbeatSeconds * 1000) void this.reconnect();
    }, 250);
  }

  private async connect(): Promise<void> {
    const last = this.events.at(-1)?.id;
    const client = await LiveClient.connect(
      this.url,
      { token: this.token, ...(last ? { last_id: last } : {}) },
      { ca: this.ca, localAddress: this.localAddress },
    );
    this.heard = Date.now();
    this.client = client;
    const seen = client.messages.length;
    for (const m of client.messages.slice(0, seen)) this.take(m);
    client.ws.on('message', () => {
      this.heard = Date.now();
      const m = client.messages.at(-1)!;
      if (m.type !== 'hello') this.take(m);
    });
    void client.closed.then(() => {
      if (this.client === client && !this.stopped) void this.reconnect();
    });
  }

  private take(m: LiveMessage): void {
    if (m.type === 'resync') this.resyncs += 1;
    if (m.id !== undefined) this.events.push(m);
  }

  private reconnecting = false;
  private async reconnect(): Promise<void> {
    if (this.reconnecting || this.stopped) return;
    this.reconnecting = true;
    this.client?.ws.terminate();
    this.client = undefined;
    this.reconnects += 1;
    // As the player (web/player/src/live.ts): 1 s before the first attempt, doubling to 30 s.
    for (let wait = 1000; !this.stopped; wait = Math.min(wait * 2, 30_000)) {
      await new Promise((r) => setTimeout(r, wait));
      if (this.stopped) break;
      try {
        await this.connect();
        break;
      } catch (err) {
        this.failures.push((err as Error).message.slice(0, 60));
      }
    }
    this.reconnecting = false;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.watchdog);
    this.client?.ws.terminate();
  }
}
