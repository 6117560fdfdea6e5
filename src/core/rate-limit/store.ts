import type { GcraLimit } from './gcra.js';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterMs: number;
}

export interface RateLimitGrant {
  /** Requests admitted: 0 when none was. */
  granted: number;
  retryAfterMs: number;
}

export interface RateLimitBucket {
  key: string;
  limit: GcraLimit;
}

/** Where GCRA state lives: in this process, or in Redis shared by every instance. */
export interface RateLimitStore {
  /** Takes `cost` requests' worth at once (default 1), all or none (gcra.ts). */
  take(key: string, limit: GcraLimit, cost?: number): Promise<RateLimitResult>;
  /** Takes as many of `most` requests as the bucket holds now, at least one or none (gcraUpTo). */
  takeUpTo(key: string, limit: GcraLimit, most: number): Promise<RateLimitGrant>;
  /**
   * One request from each bucket, all or none (a mail charged to its account and its recipient):
   * a refusal charges no bucket and waits for the slowest one.
   */
  takeAll(buckets: readonly RateLimitBucket[]): Promise<RateLimitResult>;
  close?(): Promise<void>;
}
