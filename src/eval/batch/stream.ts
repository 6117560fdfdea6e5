/**
 * The batch's answer: an NDJSON stream that dispatches lines only as fast as the client reads.
 * At most `concurrency` lines are in flight, and new ones are dispatched only when the stream is
 * read, so a client that stops reading stops the work at the socket's buffers, and one that
 * disconnects (the stream is destroyed) gets nothing more dispatched. Answers leave in input
 * order whatever order they finish in.
 */
import { Readable } from 'node:stream';

/** Grants a number of lines to dispatch (the rate limit); may wait. `cost` lines at most. */
export type LineAdmission = (cost: number, signal: AbortSignal) => Promise<number>;

export interface BatchStreamOptions {
  count: number;
  concurrency: number;
  /** Runs line `index`; resolves to its output line (with the newline), never rejects. */
  runLine: (index: number) => Promise<string>;
  /** Absent: no limit. */
  admit?: LineAdmission;
  /** Lines already admitted (the route admits the first before answering). */
  credit?: number;
}

export class BatchStream extends Readable {
  private readonly pending: (Promise<string> | undefined)[] = [];
  private next = 0;
  private dispatched = 0;
  private credit: number;
  private pumping = false;
  private admitting = false;
  private readonly stop = new AbortController();
  private wakeHead: (() => void) | undefined;

  constructor(private readonly options: BatchStreamOptions) {
    super({ highWaterMark: 16 * 1024 });
    this.credit = options.admit ? (options.credit ?? 0) : Infinity;
  }

  /** How many lines were handed to runLine. */
  get dispatchedCount(): number {
    return this.dispatched;
  }

  override _read(): void {
    if (!this.pumping) void this.pump();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.stop.abort();
    this.wakeHead?.();
    callback(err);
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (!this.stop.signal.aborted) {
        if (this.next === this.options.count) {
          this.push(null);
          return;
        }
        this.fill();
        const head = this.pending[this.next] ?? (await this.headDispatched());
        if (head === undefined) return;
        const text = await head;
        if (this.stop.signal.aborted) return;
        this.pending[this.next] = undefined;
        this.next++;
        if (!this.push(text)) return;
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Dispatches what the window and the granted lines allow; asks for more lines when short. */
  private fill(): void {
    const { count, concurrency } = this.options;
    while (
      !this.stop.signal.aborted &&
      this.dispatched < count &&
      this.dispatched - this.next < concurrency &&
      this.credit > 0
    ) {
      this.pending[this.dispatched] = this.options.runLine(this.dispatched);
      this.dispatched++;
      this.credit--;
    }
    if (this.credit === 0 && this.dispatched < count && this.dispatched - this.next < concurrency)
      void this.admitMore();
  }

  private async admitMore(): Promise<void> {
    const admit = this.options.admit;
    if (this.admitting || !admit) return;
    this.admitting = true;
    try {
      const wanted = Math.min(this.options.count - this.dispatched, this.options.concurrency);
      this.credit += await admit(wanted, this.stop.signal);
    } catch (err) {
      if (!this.stop.signal.aborted) this.destroy(err as Error);
      return;
    } finally {
      this.admitting = false;
    }
    this.fill();
    this.wakeHead?.();
  }

  /** The head line's promise once it is dispatched; undefined when the stream stopped first. */
  private headDispatched(): Promise<Promise<string> | undefined> {
    return new Promise((resolve) => {
      this.wakeHead = () => {
        if (this.stop.signal.aborted) resolve(undefined);
        else if (this.pending[this.next]) resolve(this.pending[this.next]);
        else return;
        this.wakeHead = undefined;
      };
    });
  }
}
