/**
 * The live connections of one API instance: the hello handshake (identity, resume point), the
 * per-user cap, fan-out of the followed event stream to the user's sockets, heartbeats, and
 * the bounds: a socket whose unsent bytes pass the limit (a slow reader) is closed with a
 * reason, so one reader never holds the instance's memory. Transport-agnostic: the route
 * adapts the websocket to `LiveSocket`.
 */
import { EventEmitter } from 'node:events';
import type { EventFeed, FollowedEvent } from '../repositories/event-stream-repository.js';
import { compareIds } from './live-events.js';
import {
  CLOSE,
  heartbeatMessage,
  helloAck,
  MESSAGE_BURST,
  MESSAGES_PER_SECOND,
  parseClientMessage,
  PONG,
  resyncMessage,
  type ClientMessage,
} from './live-protocol.js';

export interface LiveSocket {
  send(text: string): void;
  /** Bytes accepted by send() and not yet handed to the kernel. */
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
  terminate(): void;
  ping(): void;
}

export interface LiveHubOptions {
  maxConnectionsPerUser: number;
  /** A socket with more unsent bytes than this is a slow reader and is closed. */
  maxBufferedBytes: number;
  heartbeatMs: number;
  /** Events held per socket while its resume backlog is read. */
  maxHeldEvents: number;
  helloTimeoutMs: number;
  /** How long a closed socket may take to read its close frame before it is cut off. */
  closeGraceMs: number;
  resumeWindow: number;
}

export interface LiveIdentity {
  /** The user of a token; undefined when it is refused (expired, revoked, forged); throws when unsure (Redis away). */
  userOf(token: string): Promise<string | undefined>;
}

export interface CutNotice {
  userId: string | undefined;
  code: number;
  reason: string;
}

type State = 'hello' | 'starting' | 'live' | 'closed';

class LiveConnection {
  state: State = 'hello';
  userId: string | undefined;
  token: string | undefined;
  lastId: string | undefined;
  alive = true;
  held: FollowedEvent[] = [];
  private helloTimer: NodeJS.Timeout | undefined;
  /** Messages the client may still send now (a token bucket refilled at MESSAGES_PER_SECOND). */
  private allowance = MESSAGE_BURST;
  private allowanceAt = performance.now();

  constructor(
    readonly hub: LiveHub,
    readonly socket: LiveSocket,
    readonly cookieToken: string | undefined,
  ) {
    this.helloTimer = setTimeout(
      () => this.end(CLOSE.unauthorized, 'no hello message within the time allowed'),
      hub.options.helloTimeoutMs,
    );
  }

  /** Queues one message, or closes a reader that lets too much pile up. */
  send(text: string): boolean {
    if (this.state === 'closed') return false;
    if (this.socket.bufferedAmount > this.hub.options.maxBufferedBytes) {
      this.end(CLOSE.slowReader, 'slow reader: too many unread messages; reconnect with the last id');
      return false;
    }
    this.socket.send(text);
    return true;
  }

  deliver(event: FollowedEvent): void {
    if (this.state === 'starting') {
      this.held.push(event);
      if (this.held.length > this.hub.options.maxHeldEvents)
        this.end(CLOSE.slowReader, 'slow reader: too many events while resuming; reconnect with the last id');
      return;
    }
    if (this.state !== 'live') return;
    if (this.lastId !== undefined && compareIds(event.id, this.lastId) <= 0) return;
    if (this.send(event.text)) this.lastId = event.id;
  }

  onMessage(text: string): void {
    if (this.state === 'closed') return;
    if (!this.mayReceive())
      return this.end(
        CLOSE.tooManyMessages,
        `too many messages: at most ${MESSAGES_PER_SECOND} a second; ping once per heartbeat`,
      );
    this.alive = true;
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.end(CLOSE.badMessage, parsed.reason);
    const message: ClientMessage = parsed.message;
    if (message.type === 'ping') {
      if (this.state === 'hello') return this.end(CLOSE.badMessage, 'the first message must be hello');
      this.send(PONG);
      return;
    }
    if (this.state !== 'hello') return this.end(CLOSE.badMessage, 'hello was already sent');
    clearTimeout(this.helloTimer);
    this.state = 'starting';
    void this.hub.start(this, message.token ?? this.cookieToken, message.lastId);
  }

  private mayReceive(): boolean {
    const now = performance.now();
    this.allowance = Math.min(
      MESSAGE_BURST,
      this.allowance + ((now - this.allowanceAt) / 1000) * MESSAGES_PER_SECOND,
    );
    this.allowanceAt = now;
    if (this.allowance < 1) return false;
    this.allowance--;
    return true;
  }

  /** Closes with a reason; a reader that does not take the close frame in time is cut off. */
  end(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.helloTimer);
    this.held = [];
    this.hub.remove(this, { userId: this.userId, code, reason });
    this.socket.close(code, reason);
    setTimeout(() => this.socket.terminate(), this.hub.options.closeGraceMs).unref();
  }

  /** The socket is gone (closed by the peer or terminated). */
  gone(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.helloTimer);
    this.hub.remove(this, undefined);
  }
}

export type { LiveConnection };

export class LiveHub extends EventEmitter<{ cut: [CutNotice] }> {
  private readonly byUser = new Map<string, Set<LiveConnection>>();
  private readonly all = new Set<LiveConnection>();
  private following: Promise<{ close(): void }> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly feed: EventFeed,
    private readonly identity: LiveIdentity,
    readonly options: LiveHubOptions,
    private readonly onFeedError: (err: Error) => void = () => undefined,
  ) {
    super();
  }

  /** A new socket: it has helloTimeoutMs to send its hello. */
  accept(socket: LiveSocket, cookieToken: string | undefined): LiveConnection {
    const connection = new LiveConnection(this, socket, cookieToken);
    if (this.closing) connection.end(CLOSE.goingAway, 'server shutting down');
    else this.all.add(connection);
    this.heartbeat ??= setInterval(() => this.beat(), this.options.heartbeatMs).unref();
    return connection;
  }

  /** Connections per user on this instance (tests and the benchmark read it). */
  connectionsOf(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  get size(): number {
    return this.all.size;
  }

  async start(c: LiveConnection, token: string | undefined, lastId: string | undefined): Promise<void> {
    if (token === undefined)
      return c.end(CLOSE.unauthorized, 'authentication required: send {"type":"hello","v":1,"token":"..."}');
    let userId: string | undefined;
    try {
      userId = await this.identity.userOf(token);
    } catch {
      return c.end(CLOSE.tryAgainLater, 'cannot check the session right now; reconnect in a few seconds');
    }
    if (userId === undefined)
      return c.end(CLOSE.unauthorized, 'the token is invalid, expired or revoked: log in again');
    if (c.state !== 'starting') return;
    const mine = this.byUser.get(userId) ?? new Set<LiveConnection>();
    if (mine.size >= this.options.maxConnectionsPerUser)
      return c.end(
        CLOSE.tooManyConnections,
        `too many connections: at most ${this.options.maxConnectionsPerUser} per user; close another tab`,
      );
    c.userId = userId;
    c.token = token;
    mine.add(c);
    this.byUser.set(userId, mine);
    try {
      await this.ensureFollowing();
      const backlog = lastId === undefined ? undefined : await this.feed.since(userId, lastId);
      if (c.state !== 'starting') return;
      c.lastId = lastId;
      c.send(
        helloAck(
          userId,
          backlog?.complete ?? false,
          this.options.heartbeatMs / 1000,
          this.options.resumeWindow,
        ),
      );
      if (backlog && !backlog.complete) c.send(resyncMessage());
      c.state = 'live';
      for (const e of backlog?.events ?? []) c.deliver({ userId, ...e });
      const held = c.held;
      c.held = [];
      for (const e of held) c.deliver(e);
    } catch (err) {
      this.onFeedError(err instanceof Error ? err : new Error(String(err)));
      c.end(CLOSE.tryAgainLater, 'live updates are unavailable right now; reconnect in a few seconds');
    }
  }

  private ensureFollowing(): Promise<unknown> {
    this.following ??= this.feed
      .follow((events) => this.dispatch(events), this.onFeedError)
      .catch((err: unknown) => {
        this.following = undefined;
        throw err;
      });
    return this.following;
  }

  dispatch(events: readonly FollowedEvent[]): void {
    for (const e of events) {
      const mine = this.byUser.get(e.userId);
      if (mine) for (const c of mine) c.deliver(e);
    }
  }

  remove(c: LiveConnection, notice: CutNotice | undefined): void {
    this.all.delete(c);
    if (c.userId !== undefined) {
      const mine = this.byUser.get(c.userId);
      mine?.delete(c);
      if (mine?.size === 0) this.byUser.delete(c.userId);
    }
    if (notice) this.emit('cut', notice);
  }

  private beat(): void {
    const text = heartbeatMessage(new Date());
    for (const c of this.all) {
      if (!c.alive) {
        c.socket.terminate();
        c.gone();
        this.emit('cut', { userId: c.userId, code: 1006, reason: 'no answer to the heartbeat' });
        continue;
      }
      c.alive = false;
      c.socket.ping();
      if (c.state !== 'live' || c.token === undefined) continue;
      c.send(text);
      // A session that ended (logout, revocation, expiry) stops receiving.
      this.identity.userOf(c.token).then(
        (userId) => {
          if (userId === undefined) c.end(CLOSE.unauthorized, 'the session ended: log in again');
        },
        () => undefined,
      );
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    for (const c of [...this.all]) c.end(CLOSE.goingAway, 'server shutting down; reconnect with the last id');
    const following = this.following;
    this.following = undefined;
    if (following) (await following.catch(() => undefined))?.close();
  }
}
