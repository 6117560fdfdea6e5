/**
 * Digests (MD5 for a part's ETag, SHA-256 of an assembled file) of large bodies, computed on a
 * thread of their own: on the event loop, the MD5 of a 100 MiB part held it for hundreds of
 * milliseconds in 64 KiB slices, and every other route waited (bench/results/health-under-load.md).
 * The event loop only copies each block into a transit buffer that is moved to the thread and
 * moved back once hashed, so no block is allocated per body; at most IN_TRANSIT blocks per
 * digest wait on the thread, so a slow thread slows the body's reader instead of filling memory.
 */
import { ThreadCalls } from '../thread-calls.js';

const BLOCK = 1024 * 1024;
const IN_TRANSIT = 4;
const POOL_LIMIT = 16;

/** What the digest thread (workers/digest.ts) is asked; `digest` names one digest in progress. */
export type DigestJob =
  | { kind: 'start'; digest: number; algorithm: 'md5' | 'sha256' }
  | { kind: 'update'; digest: number; bytes: Uint8Array; length: number }
  | { kind: 'end' | 'drop'; digest: number };

const thread = new ThreadCalls<DigestJob>('digest', {}, 'digest thread');
const pool: Uint8Array[] = [];
let lastDigest = 0;

/** One digest in progress on the digest thread. */
export class ThreadDigest {
  private readonly id = ++lastDigest;
  private readonly inTransit: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;
  private ended = false;

  constructor(algorithm: 'md5' | 'sha256') {
    this.track(thread.call({ kind: 'start', digest: this.id, algorithm }));
  }

  /** Adds `bytes` (copied before this returns: the caller may reuse them at once). */
  async update(bytes: Uint8Array): Promise<void> {
    for (let offset = 0; offset < bytes.length; offset += BLOCK) {
      while (this.inTransit.length >= IN_TRANSIT) await this.inTransit.shift();
      if (this.failure) throw this.failure.error;
      const piece = bytes.subarray(offset, offset + BLOCK);
      const block = pool.pop() ?? new Uint8Array(new ArrayBuffer(BLOCK));
      block.set(piece);
      const job: DigestJob = { kind: 'update', digest: this.id, bytes: block, length: piece.length };
      this.track(
        thread.call<Uint8Array>(job, [block.buffer as ArrayBuffer]).then((back) => {
          if (pool.length < POOL_LIMIT) pool.push(back);
        }),
      );
    }
  }

  /** The hex digest of every byte added. */
  async end(): Promise<string> {
    this.ended = true;
    await Promise.all(this.inTransit);
    if (this.failure) throw this.failure.error;
    return thread.call<string>({ kind: 'end', digest: this.id });
  }

  /** Drops a digest that will not be ended (its body failed). */
  drop(): void {
    if (this.ended) return;
    this.ended = true;
    this.track(thread.call({ kind: 'drop', digest: this.id }));
  }

  private track(call: Promise<unknown>): void {
    this.inTransit.push(
      call.then(
        () => undefined,
        (error: unknown) => {
          this.failure ??= { error };
        },
      ),
    );
  }
}
