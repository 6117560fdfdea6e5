/**
 * At most `max` tasks at once; later ones wait their turn, in order, and when `queue` are
 * already waiting a new one is refused at once with `full()` (a 503 for a request), so a burst
 * never holds more than max + queue tasks' memory.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly queue: number,
    private readonly full: () => Error,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
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
