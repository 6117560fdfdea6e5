import type { GcraLimit } from './gcra.js';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterMs: number;
}

/** Where GCRA state lives: in this process, or in Redis shared by every instance. */
export interface RateLimitStore {
  /** Takes `cost` requests' worth at once (default 1), all or none (gcra.ts). */
  take(key: string, limit: GcraLimit, cost?: number): Promise<RateLimitResult>;
  close?(): Promise<void>;
}
