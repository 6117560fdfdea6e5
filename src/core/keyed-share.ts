/**
 * A per-key share of one ConcurrencyLimit: a key (e.g. an account) may hold at most `perKey` of
 * its tasks (running or waiting) at once, refused at once with `over()` beyond that, so one key
 * can never fill the whole limit; the limit's own bound and queue still apply to all keys.
 * A wrapper rather than a change inside ConcurrencyLimit, which stays the one bound.
 */
import type { ConcurrencyLimit } from './concurrency-limit.js';

export class KeyedShare {
  private readonly held = new Map<string, number>();
  private inside = 0;
  private total = 0;

  constructor(
    private readonly limit: ConcurrencyLimit,
    private readonly perKey: number,
    private readonly over: () => Error,
  ) {}

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const mine = this.held.get(key) ?? 0;
    if (mine >= this.perKey) throw this.over();
    this.held.set(key, mine + 1);
    this.total++;
    try {
      return await this.limit.run(async () => {
        this.inside++;
        try {
          return await task();
        } finally {
          this.inside--;
        }
      });
    } finally {
      this.total--;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left === 0) this.held.delete(key);
      else this.held.set(key, left);
    }
  }

  /** Tasks running now and waiting for a slot (a gauge for /metrics and tests). */
  get counts(): { running: number; waiting: number } {
    return { running: this.inside, waiting: this.total - this.inside };
  }
}
