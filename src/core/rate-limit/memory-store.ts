import { gcra, gcraUpTo, type GcraLimit } from './gcra.js';
import type { RateLimitBucket, RateLimitGrant, RateLimitResult, RateLimitStore } from './store.js';

/** In-process GCRA state, for a single instance. Idle keys are swept so memory stays bounded. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly tats = new Map<string, number>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {}

  take(key: string, limit: GcraLimit, cost = 1): Promise<RateLimitResult> {
    const now = this.now();
    this.sweep(now);
    const d = gcra(this.tats.get(key), now, limit, cost);
    if (d.allowed) this.tats.set(key, d.tat);
    return Promise.resolve({ allowed: d.allowed, retryAfterMs: d.retryAfterMs });
  }

  takeUpTo(key: string, limit: GcraLimit, most: number): Promise<RateLimitGrant> {
    const now = this.now();
    this.sweep(now);
    const g = gcraUpTo(this.tats.get(key), now, limit, most);
    if (g.granted > 0) this.tats.set(key, g.tat);
    return Promise.resolve({ granted: g.granted, retryAfterMs: g.retryAfterMs });
  }

  takeAll(buckets: readonly RateLimitBucket[]): Promise<RateLimitResult> {
    const now = this.now();
    this.sweep(now);
    const decisions = buckets.map((b) => gcra(this.tats.get(b.key), now, b.limit));
    const wait = Math.max(0, ...decisions.map((d) => (d.allowed ? 0 : d.retryAfterMs)));
    if (wait > 0) return Promise.resolve({ allowed: false, retryAfterMs: wait });
    buckets.forEach((b, i) => this.tats.set(b.key, decisions[i]!.tat));
    return Promise.resolve({ allowed: true, retryAfterMs: 0 });
  }

  /** A key whose TAT has passed holds no information (it equals a fresh key). */
  private sweep(now: number): void {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }
}
