/** When to try again after a 429 or 503: the server's Retry-After, else backoff; plus jitter. */

export interface RetryPolicy {
  /** Attempts after the first (default 3). */
  retries: number;
  /** Backoff without Retry-After: base * 2^attempt, at most maxBackoffMs (defaults 200 ms, 5 s). */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** Up to this many ms added at random, so clients told the same Retry-After spread out (default 250). */
  jitterMs: number;
  /** A Retry-After longer than this is not waited for: the call fails with it (default 60 s). */
  maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 3,
  baseBackoffMs: 200,
  maxBackoffMs: 5000,
  jitterMs: 250,
  maxWaitMs: 60_000,
};

/** Retry-After as milliseconds (delay-seconds or an HTTP-date, RFC 9110 10.2.3); undefined if absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Never earlier than the server asked: jitter is only ever added. */
export function retryDelayMs(
  attempt: number,
  retryAfter: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const base = retryAfter ?? Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** attempt);
  return base + Math.floor(random() * policy.jitterMs);
}
