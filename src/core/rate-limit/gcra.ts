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

export interface GcraGrant {
  /** Requests admitted now: 1 to `most`, or 0 when none is. */
  granted: number;
  /** New TAT to store when some were granted; the previous one otherwise. */
  tat: number;
  /** Milliseconds until one request would be admitted (0 when some were granted). */
  retryAfterMs: number;
}

/**
 * As many of `most` requests as the bucket holds now (a batch's lines): what `gcra` would admit
 * as one cost, at most `most`, so a long batch takes the lines as they become due instead of
 * waiting for a whole group.
 */
export function gcraUpTo(
  previousTat: number | undefined,
  nowMs: number,
  limit: GcraLimit,
  most: number,
): GcraGrant {
  const interval = emissionIntervalMs(limit);
  const tolerance = limit.burst * interval;
  const tat = Math.max(previousTat ?? nowMs, nowMs);
  let granted = Math.min(most, Math.floor((nowMs + tolerance - tat) / interval) + 1);
  // The division can round either way: settle on exactly the largest cost gcra() admits.
  while (granted > 0 && tat + (granted - 1) * interval - tolerance - nowMs > 0) granted--;
  while (granted < most && tat + granted * interval - tolerance - nowMs <= 0) granted++;
  if (granted <= 0) return { granted: 0, tat: previousTat ?? nowMs, retryAfterMs: tat - tolerance - nowMs };
  return { granted, tat: tat + granted * interval, retryAfterMs: 0 };
}

/** Retry-After is whole seconds (RFC 9110); round up so a client that obeys it is admitted. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
