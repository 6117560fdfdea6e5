/**
 * A limiter that stays closed when its shared store fails (docs/music-edge.md, "Limits under
 * load"): a Redis command that times out (a busy event loop, a slow link) or a Redis that is
 * down makes this process decide alone, with the same limits in a local GCRA. A client then gets
 * at most the limit once per instance instead of no limit at all. The failure is logged at most
 * once per interval, with how many decisions were taken locally since the last line.
 */
import type { GcraLimit } from './gcra.js';
import { MemoryRateLimitStore } from './memory-store.js';
import type { RateLimitBucket, RateLimitGrant, RateLimitResult, RateLimitStore } from './store.js';

export type FallbackLog = (err: unknown, localDecisions: number) => void;

export class LocalFallbackStore implements RateLimitStore {
  private readonly local = new MemoryRateLimitStore();
  private lastLoggedAt = -Infinity;
  private localSinceLog = 0;

  constructor(
    readonly shared: RateLimitStore,
    private readonly log: FallbackLog,
    private readonly logIntervalMs = 60_000,
  ) {}

  take(key: string, limit: GcraLimit, cost?: number): Promise<RateLimitResult> {
    return this.either((s) => s.take(key, limit, cost));
  }

  takeUpTo(key: string, limit: GcraLimit, most: number): Promise<RateLimitGrant> {
    return this.either((s) => s.takeUpTo(key, limit, most));
  }

  takeAll(buckets: readonly RateLimitBucket[]): Promise<RateLimitResult> {
    return this.either((s) => s.takeAll(buckets));
  }

  private async either<T>(decide: (store: RateLimitStore) => Promise<T>): Promise<T> {
    try {
      return await decide(this.shared);
    } catch (err) {
      this.localSinceLog++;
      const now = Date.now();
      if (now - this.lastLoggedAt >= this.logIntervalMs) {
        this.log(err, this.localSinceLog);
        this.lastLoggedAt = now;
        this.localSinceLog = 0;
      }
      return decide(this.local);
    }
  }
}

/** The store with a local fallback (the same one when it has one already). */
export function withLocalFallback(
  store: RateLimitStore,
  log: FallbackLog,
  logIntervalMs?: number,
): LocalFallbackStore {
  return store instanceof LocalFallbackStore ? store : new LocalFallbackStore(store, log, logIntervalMs);
}
