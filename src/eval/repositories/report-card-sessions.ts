/**
 * One-shot sessions (report card, open bench): in memory, or in Redis when CACHE_URL is set so
 * any instance can grade any session. A session is claimed exactly once (atomically removed), leaving a tombstone so
 * a second submit is told "already graded" (409) and a late one "expired" (410) for an hour.
 */
import type { Redis } from 'ioredis';
import type { HeuristicId } from '../report-card/heuristics.js';

export interface SessionItem {
  item_id: string;
  bank_id: string;
  heuristic: HeuristicId;
  class_predicate: string;
}

/** What the store itself reads of a session; the rest is the owner's. */
export interface BaseSession {
  session_id: string;
  client: string;
  created_at: number;
  expires_at: number;
}

export interface StoredSession extends BaseSession {
  challenge?: string;
  items: SessionItem[];
}

export type Claim<S extends BaseSession = StoredSession> =
  { state: 'open'; session: S } | { state: 'graded' | 'expired' | 'unknown' };

export interface SessionStore<S extends BaseSession = StoredSession> {
  /** Stores the session unless its client already holds `maxPerClient` live ones (then false). */
  create(session: S, maxPerClient: number, now: number): Promise<boolean>;
  claim(id: string, now: number): Promise<Claim<S>>;
}

/** How long an expired or graded session is remembered as such. */
export const TOMBSTONE_MS = 60 * 60 * 1000;

export class MemorySessionStore<S extends BaseSession = StoredSession> implements SessionStore<S> {
  private readonly sessions = new Map<string, S>();
  private readonly tombstones = new Map<string, { state: 'graded' | 'expired'; until: number }>();

  private sweep(now: number): void {
    for (const [id, s] of this.sessions)
      if (s.expires_at <= now) {
        this.sessions.delete(id);
        if (s.expires_at + TOMBSTONE_MS > now)
          this.tombstones.set(id, { state: 'expired', until: s.expires_at + TOMBSTONE_MS });
      }
    for (const [id, t] of this.tombstones) if (t.until <= now) this.tombstones.delete(id);
  }

  create(session: S, maxPerClient: number, now: number): Promise<boolean> {
    this.sweep(now);
    let live = 0;
    for (const s of this.sessions.values()) if (s.client === session.client) live++;
    if (live >= maxPerClient) return Promise.resolve(false);
    this.sessions.set(session.session_id, session);
    return Promise.resolve(true);
  }

  claim(id: string, now: number): Promise<Claim<S>> {
    this.sweep(now);
    const session = this.sessions.get(id);
    if (session) {
      this.sessions.delete(id);
      this.tombstones.set(id, { state: 'graded', until: now + TOMBSTONE_MS });
      return Promise.resolve({ state: 'open', session });
    }
    return Promise.resolve({ state: this.tombstones.get(id)?.state ?? 'unknown' });
  }
}

/**
 * Count, compare and add in one step (KEYS: the client's live set, the session): two starts of one
 * client checked one after the other would both see room for one more.
 */
const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[2], ARGV[5], 'PX', ARGV[6])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`;

type CreateCommand = (clientKey: string, sessionKey: string, ...args: string[]) => Promise<number>;

export class RedisSessionStore<S extends BaseSession = StoredSession> implements SessionStore<S> {
  /** `namespace` keeps each owner's sessions and per-client counts apart ("rc", "ob"). */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly namespace = 'rc',
  ) {
    redis.defineCommand('sessionCreate', { numberOfKeys: 2, lua: CREATE });
  }

  private key(kind: 's' | 't' | 'c', id: string): string {
    return `${this.prefix}${this.namespace}:${kind}:${id}`;
  }

  async create(session: S, maxPerClient: number, now: number): Promise<boolean> {
    const command = (this.redis as unknown as Record<string, CreateCommand>).sessionCreate!;
    const ttl = session.expires_at + TOMBSTONE_MS - now;
    const args = [now, maxPerClient, session.expires_at, session.session_id, JSON.stringify(session), ttl];
    const added = await command.call(
      this.redis,
      this.key('c', session.client),
      this.key('s', session.session_id),
      ...args.map(String),
    );
    return added === 1;
  }

  async claim(id: string, now: number): Promise<Claim<S>> {
    const text = await this.redis.getdel(this.key('s', id));
    if (text === null) {
      const state = await this.redis.get(this.key('t', id));
      return { state: state === 'graded' || state === 'expired' ? state : 'unknown' };
    }
    const session = JSON.parse(text) as S;
    const expired = session.expires_at <= now;
    const until = expired ? session.expires_at + TOMBSTONE_MS - now : TOMBSTONE_MS;
    await this.redis
      .multi()
      .set(this.key('t', id), expired ? 'expired' : 'graded', 'PX', Math.max(1, until))
      .zrem(this.key('c', session.client), id)
      .exec();
    return expired ? { state: 'expired' } : { state: 'open', session };
  }
}
