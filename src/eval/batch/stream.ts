/**
 * The batch's answer: an NDJSON stream that dispatches lines only as fast as the client reads.
 * Lines leave in units (one line, or a chunk of small lines run together: dispatch.ts); at most
 * `concurrency` units are in flight, and new ones are dispatched only when the stream is read,
 * so a client that stops reading stops the work at the socket's buffers, and one that
 * disconnects (the stream is destroyed) gets nothing more dispatched. Answers leave in input
 * order whatever order they finish in.
 */
import { Readable } from 'node:stream';

/** Grants a number of lines to dispatch (the rate limit); may wait. `cost` lines at most. */
export type LineAdmission = (cost: number, signal: AbortSignal) => Promise<number>;

/** Lines dispatched together: how many, and their output lines (with newlines, as text or UTF-8), never rejecting. */
export interface BatchUnit {
  lines: number;
  text: Promise<string | Uint8Array>;
}

export interface BatchStreamOptions {
  count: number;
  /** Units in flight at once. */
  concurrency: number;
  /** Starts a unit of at least one and at most `most` lines from line `from` on; `stopped` aborts when the answer is destroyed. */
  dispatch: (from: number, most: number, stopped: AbortSignal) => BatchUnit;
  /** Most lines asked of `admit` at once. */
  admitAtOnce?: number;
  /** Absent: no limit. */
  admit?: LineAdmission;
  /** Lines already admitted (the route admits the first before answering). */
  credit?: number;
}

/** Longest run of answer lines produced without letting the event loop serve other requests. */
const YIELD_AFTER_MS = 2;

export class BatchStream extends Readable {
  /** Dispatched units not yet pushed, in input order. */
  private readonly pending: Promise<string | Uint8Array>[] = [];
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
    let sliceStart = performance.now();
    try {
      while (!this.stop.signal.aborted) {
        // Units that settle at once (problem lines, inline chunks) and a socket that takes every
        // write would chain microtasks through the whole batch: yield to I/O every few ms.
        if (performance.now() - sliceStart > YIELD_AFTER_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
          if (this.stop.signal.aborted) return;
        }
        if (this.dispatched === this.options.count && this.pending.length === 0) {
          this.push(null);
          return;
        }
        this.fill();
        const head = this.pending[0] ?? (await this.headDispatched());
        if (head === undefined) return;
        const text = await head;
        if (this.stop.signal.aborted) return;
        void this.pending.shift();
        if (!this.push(text)) return;
      }
    } catch (err) {
      // A unit must not reject; if one does, this answer ends rather than the process.
      this.destroy(err as Error);
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
      this.pending.length < concurrency &&
      this.credit > 0
    ) {
      const unit = this.options.dispatch(
        this.dispatched,
        Math.min(this.credit, count - this.dispatched),
        this.stop.signal,
      );
      this.pending.push(unit.text);
      this.dispatched += unit.lines;
      this.credit -= unit.lines;
    }
    if (this.credit === 0 && this.dispatched < count && this.pending.length < concurrency)
      void this.admitMore();
  }

  private async admitMore(): Promise<void> {
    const admit = this.options.admit;
    if (this.admitting || !admit) return;
    this.admitting = true;
    try {
      const wanted = Math.min(this.options.count - this.dispatched, this.options.admitAtOnce ?? 1);
      this.credit += await admit(Math.max(1, wanted), this.stop.signal);
    } catch (err) {
      if (!this.stop.signal.aborted) this.destroy(err as Error);
      return;
    } finally {
      this.admitting = false;
    }
    try {
      this.fill();
    } catch (err) {
      // A dispatch that throws ends this answer, as a rejecting unit does in pump().
      this.destroy(err as Error);
      return;
    }
    this.wakeHead?.();
  }

  /** The head unit's promise once it is dispatched; undefined when the stream stopped first. */
  private headDispatched(): Promise<Promise<string | Uint8Array> | undefined> {
    return new Promise((resolve) => {
      this.wakeHead = () => {
        if (this.stop.signal.aborted) resolve(undefined);
        else if (this.pending[0]) resolve(this.pending[0]);
        else return;
        this.wakeHead = undefined;
      };
    });
  }
}
