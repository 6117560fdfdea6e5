/**
 * nginx `limit_req` with `burst` and `nodelay`, as a generic cell rate algorithm (GCRA).
 * State is one number per key: the theoretical arrival time (TAT) in milliseconds. With rate
 * r (requests per second) and burst b, the emission interval is T = 1000/r ms and the
 * tolerance is b·T: an idle client gets b + 1 requests at once, then one every T. A rejected
 * request leaves the state untouched, so it consumes no capacity (nginx does the same).
 *
 * This pure function is the reference; the Redis Lua script (redis-store.ts) is the same
 * arithmetic and the tests hold the two to the same sequence of decisions.
 */

export interface GcraLimit {
  ratePerSecond: number;
  burst: number;
}

export interface GcraDecision {
  allowed: boolean;
  /** New TAT to store when allowed; the previous one otherwise. */
  tat: number;
  /** Milliseconds until a request would be admitted (0 when allowed). */
  retryAfterMs: number;
}

export function emissionIntervalMs(limit: GcraLimit): number {
  return 1000 / limit.ratePerSecond;
}

/**
 * `cost` requests at once (a batch's lines): admitted when the last of them would be, so a cost
 * above burst + 1 is never admitted; callers split larger costs.
 */
export function gcra(
  previousTat: number | undefined,
  nowMs: number,
  limit: GcraLimit,
  cost = 1,
): GcraDecision {
  const interval = emissionIntervalMs(limit);
  const tolerance = limit.burst * interval;
  const tat = Math.max(previousTat ?? nowMs, nowMs);
  const wait = tat + (cost - 1) * interval - tolerance - nowMs;
  if (wait > 0) return { allowed: false, tat: previousTat ?? nowMs, retryAfterMs: wait };
  return { allowed: true, tat: tat + cost * interval, retryAfterMs: 0 };
}

/** Retry-After is whole seconds (RFC 9110); round up so a client that obeys it is admitted. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
