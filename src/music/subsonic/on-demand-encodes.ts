/**
 * The bound on ffmpeg runs a Subsonic request starts (a seek with `timeOffset`, the first request
 * for a capped bitrate): one process-wide limit (core/concurrency-limit.ts) with a per-account
 * share of it (core/keyed-share.ts); beyond either, the request is refused with a Subsonic error
 * document (429 past the account's share, 503 past the server's bound, both with Retry-After).
 * A capped bitrate is made once however many ask for it at the same time.
 */
import { ConcurrencyLimit } from '../../core/concurrency-limit.js';
import { KeyedShare } from '../../core/keyed-share.js';
import { encodesBusy, tooManyEncodes } from './errors.js';

/**
 * Encodes at once (a seek's ffmpeg lives as long as its listener, mostly waiting on the socket),
 * waiting for a slot, and each account's share (a player re-seeking overlaps the stream it drops).
 */
export const ON_DEMAND_ENCODES = { atOnce: 8, waiting: 8, perUser: 2 } as const;

export type EncodeKind = 'capped' | 'offset';

export class OnDemandEncodes {
  private readonly share: KeyedShare;
  private readonly making = new Map<string, Promise<void>>();
  private readonly begun: Record<EncodeKind, number> = { capped: 0, offset: 0 };

  constructor(bounds: { atOnce: number; waiting: number; perUser: number } = ON_DEMAND_ENCODES) {
    this.share = new KeyedShare(
      new ConcurrencyLimit(bounds.atOnce, bounds.waiting, encodesBusy),
      bounds.perUser,
      () => tooManyEncodes(bounds.perUser),
    );
  }

  /** `make` for `key` in `userId`'s share, one at a time: callers asking meanwhile share its outcome. */
  once(key: string, userId: string, make: () => Promise<void>): Promise<void> {
    let made = this.making.get(key);
    if (!made) {
      made = this.share.run(userId, make).finally(() => this.making.delete(key));
      this.making.set(key, made);
    }
    return made;
  }

  /**
   * An encode whose output is streamed: the answer is handed out once `start` gives it, and the
   * slot is held until `done` settles (the whole time ffmpeg runs, not just this call).
   */
  streaming<A>(userId: string, start: () => Promise<{ answer: A; done: Promise<unknown> }>): Promise<A> {
    return new Promise<A>((answer, refuse) => {
      this.share
        .run(userId, async () => {
          const started = await start();
          answer(started.answer);
          await started.done;
        })
        .catch(refuse);
    });
  }

  /** Called as an ffmpeg run starts: counted for /metrics. */
  began(kind: EncodeKind): void {
    this.begun[kind]++;
  }

  /** Encodes running and waiting now, and those begun since start, by kind. */
  get counts(): { running: number; waiting: number; begun: Readonly<Record<EncodeKind, number>> } {
    return { ...this.share.counts, begun: { ...this.begun } };
  }
}
