/**
 * A bounded queue for password hashing (Argon2id, services/passwords.ts). Each hash takes ~19 MiB
 * and tens of milliseconds of a CPU core (on the hash thread, hash-thread.ts): unbounded, a login
 * flood starved every route. At most `running` hashes run at once, `waiting` more wait their turn, and past that a request is answered
 * 503 with Retry-After at once. A bound of this process's CPU, so it is local by design.
 */
import { passwordChecksBusy } from '../errors/auth.js';

export class HashQueue {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) throw passwordChecksBusy(1);
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      // The slot passes to the next in line directly, so `active` never undercounts.
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Refuses at once when a hash would be refused now: a login sheds before its database and Redis work. */
  assertRoom(): void {
    if (this.active >= this.running && this.queue.length >= this.waiting) throw passwordChecksBusy(1);
  }
}

/**
 * One at a time (the one hash thread), eight waiting: a hash holds a core for tens of
 * milliseconds; on a two-core host the other core stays for the event loop.
 */
export const passwordHashes = new HashQueue(1, 8);
