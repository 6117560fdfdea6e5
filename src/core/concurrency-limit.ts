/**
 * At most `max` tasks at once; later ones wait their turn, in order, and when `queue` are
 * already waiting a new one is refused at once with `full()` (a 503 for a request), so a burst
 * never holds more than max + queue tasks' memory. With `perKey`, one key (an account) has at
 * most `perKey.most` tasks running or waiting, the next refused with `perKey.full()`: one caller
 * cannot take the queue from everyone else.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly byKey = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly queue: number,
    private readonly full: () => Error,
    private readonly perKey?: { most: number; full: () => Error },
  ) {}

  async run<T>(task: () => Promise<T>, key?: string): Promise<T> {
    if (key === undefined || this.perKey === undefined) return this.runInTurn(task);
    const held = this.byKey.get(key) ?? 0;
    if (held >= this.perKey.most) throw this.perKey.full();
    this.byKey.set(key, held + 1);
    try {
      return await this.runInTurn(task);
    } finally {
      const left = (this.byKey.get(key) ?? 1) - 1;
      if (left > 0) this.byKey.set(key, left);
      else this.byKey.delete(key);
    }
  }

  private async runInTurn<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.max) this.running++;
    else if (this.waiting.length >= this.queue) throw this.full();
    // The finishing task hands its slot over, so `running` stays as it is.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
