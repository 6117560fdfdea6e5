import type { GcraLimit } from './gcra.js';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterMs: number;
}

/** Where GCRA state lives: in this process, or in Redis shared by every instance. */
export interface RateLimitStore {
  take(key: string, limit: GcraLimit): Promise<RateLimitResult>;
  close?(): Promise<void>;
}
