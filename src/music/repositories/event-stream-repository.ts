/**
 * The live event bus on Redis streams (docs/live-updates.md). Each event is appended, in one
 * script, to the user's own stream (bounded: the resume window, and its ids are what clients
 * send back to resume) and to one shared stream every API instance follows with a blocking
 * XREAD, so a user connected to any instance hears what a worker or another instance did.
 * Every key carries the configured prefix.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { EventPublisher, LiveEvent, StoredEvent } from '../services/live-events.js';

/** Lua: both appends or neither, and the shared entry names the user stream's id. */
const PUBLISH_SCRIPT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'e', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'u', ARGV[5], 'i', id, 'e', ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return id`;
const PUBLISH_SHA = createHash('sha1').update(PUBLISH_SCRIPT).digest('hex');

export interface EventStreamOptions {
  /** MUSIC_CACHE_KEY_PREFIX. */
  prefix: string;
  /** Events kept per user for resuming (EVENTS_RESUME_WINDOW). */
  window: number;
  /** A user stream (and the shared one) idle this long is dropped. */
  ttlMs?: number;
  /** Entries the shared stream keeps (approximately): followers read it within moments. */
  sharedLength?: number;
}

/** One event as followed from the shared stream, its wire text already built once for all sockets. */
export interface FollowedEvent {
  userId: string;
  id: string;
  text: string;
}

export interface ResumeResult {
  /** False when the window no longer holds the id the client saw last: some events may be lost. */
  complete: boolean;
  events: { id: string; text: string }[];
}

export interface EventFeed {
  since(userId: string, afterId: string): Promise<ResumeResult>;
  /**
   * Follows every user's events from now on; resolves once the starting point is fixed (an
   * event published after that is delivered). The follower's close() ends the loop.
   */
  follow(
    onEvents: (events: FollowedEvent[]) => void,
    onError: (err: Error) => void,
  ): Promise<{ close(): void }>;
}

const DAY_MS = 24 * 3600 * 1000;

/** The wire text of a stored event: built by concatenation, the event JSON parsed never. */
export function wireText(id: string, eventJson: string): string {
  const ms = Number(id.slice(0, id.indexOf('-')));
  return `{"v":1,"id":"${id}","at":"${new Date(ms).toISOString()}",${eventJson.slice(1)}`;
}

function field(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

export class RedisEventStream implements EventPublisher, EventFeed {
  private readonly ttlMs: number;
  private readonly sharedLength: number;

  constructor(
    private readonly redis: Redis,
    /** A blocking XREAD needs its own connection, without the API's short command timeout. */
    private readonly cacheUrl: string,
    private readonly options: EventStreamOptions,
  ) {
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.sharedLength = options.sharedLength ?? 10_000;
  }

  userKey(userId: string): string {
    return `${this.options.prefix}events:user:${userId}`;
  }

  get sharedKey(): string {
    return `${this.options.prefix}events:all`;
  }

  async publish(userId: string, event: LiveEvent): Promise<void> {
    const args = [
      this.userKey(userId),
      this.sharedKey,
      this.options.window,
      this.sharedLength,
      JSON.stringify({ type: event.type, data: event.data }),
      this.ttlMs,
      userId,
    ] as const;
    try {
      // By hash: the script's text crosses the wire once per Redis start, not once per event.
      await this.redis.evalsha(PUBLISH_SHA, 2, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      await this.redis.eval(PUBLISH_SCRIPT, 2, ...args);
    }
  }

  async since(userId: string, afterId: string): Promise<ResumeResult> {
    const key = this.userKey(userId);
    const seen = await this.redis.xrange(key, afterId, afterId);
    const entries =
      seen.length > 0
        ? await this.redis.xrange(key, `(${afterId}`, '+', 'COUNT', this.options.window)
        : await this.redis.xrange(key, '-', '+', 'COUNT', this.options.window);
    const events = entries.flatMap(([id, fields]) => {
      const e = field(fields, 'e');
      return e === undefined ? [] : [{ id, text: wireText(id, e) }];
    });
    return { complete: seen.length > 0, events };
  }

  /** Every stored event of a user (tests and tools compare what a client saw with it). */
  async all(userId: string): Promise<StoredEvent[]> {
    const entries = await this.redis.xrange(this.userKey(userId), '-', '+');
    return entries.flatMap(([id, fields]) => {
      const e = field(fields, 'e');
      if (e === undefined) return [];
      return [
        { id, at: new Date(Number(id.split('-')[0])).toISOString(), event: JSON.parse(e) as LiveEvent },
      ];
    });
  }

  async follow(
    onEvents: (events: FollowedEvent[]) => void,
    onError: (err: Error) => void,
  ): Promise<{ close(): void }> {
    const latest = await this.redis.xrevrange(this.sharedKey, '+', '-', 'COUNT', 1);
    let last = latest[0]?.[0] ?? '0-0';
    const blocking = new Redis(this.cacheUrl, { maxRetriesPerRequest: null, connectTimeout: 2_000 });
    blocking.on('error', () => undefined);
    let closed = false;
    const loop = async (): Promise<void> => {
      while (!closed) {
        try {
          const result = await blocking.xread('COUNT', 200, 'BLOCK', 5000, 'STREAMS', this.sharedKey, last);
          const entries = result?.[0]?.[1] ?? [];
          const batch: FollowedEvent[] = [];
          for (const [globalId, fields] of entries) {
            last = globalId;
            const userId = field(fields, 'u');
            const id = field(fields, 'i');
            const e = field(fields, 'e');
            if (userId !== undefined && id !== undefined && e !== undefined)
              batch.push({ userId, id, text: wireText(id, e) });
          }
          if (batch.length > 0) onEvents(batch);
        } catch (err) {
          if (closed) return;
          onError(err instanceof Error ? err : new Error(String(err)));
          // Redis away: try again shortly; `last` keeps the place, so nothing still in the stream is lost.
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    };
    void loop();
    return {
      close: () => {
        closed = true;
        blocking.disconnect();
      },
    };
  }
}
