/**
 * How often one client may publish to the public leaderboard (F14): a bucket per client in the
 * rate limiter's store (Redis, shared by every instance), keyed as every per-client limit is
 * (core/rate-limit/plugin.ts limitKey: the address, an IPv6 client's /64). The eval service has
 * no API keys, so the address group is the client. Submitting without `publish` is not counted.
 */
import { retryAfterSeconds, type GcraLimit } from '../../core/rate-limit/gcra.js';
import { limitKey } from '../../core/rate-limit/plugin.js';
import type { RateLimitStore } from '../../core/rate-limit/store.js';
import { publicationRateLimited } from '../errors.js';

/** Three publications at once, then one every 10 minutes (6 an hour). */
export const PUBLICATION_SCOPE: { name: string } & GcraLimit = {
  name: 'open-bench-publish',
  ratePerSecond: 6 / 3600,
  burst: 2,
};

export class PublicationLimit {
  constructor(
    private readonly store: RateLimitStore,
    private readonly now: () => number,
  ) {}

  /** Counts one publication by `client`, or throws the 429 saying when it may publish again. */
  async take(client: string): Promise<void> {
    const result = await this.store.take(limitKey(PUBLICATION_SCOPE, client), PUBLICATION_SCOPE);
    if (result.allowed) return;
    const seconds = retryAfterSeconds(result.retryAfterMs);
    throw publicationRateLimited(seconds, new Date(this.now() + seconds * 1000));
  }
}
