/**
 * A worker thread that answers calls in the order they are sent, for CPU work that must not run
 * on the event loop (password hashes, digests of large bodies). Both sides are here: `ThreadCalls`
 * on the caller's side starts a module under workers/ (worker-entry.ts), which calls `answerCalls`
 * with its handler. An answer that is a byte view owning its whole buffer is moved back, not
 * copied. The thread starts on first use and keeps the process alive only while it owes an answer.
 */
import { parentPort, Worker } from 'node:worker_threads';
import { workerEntry } from './worker-entry.js';

type Call = { id: number } & object;
type Reply = { id: number; answer?: unknown; error?: string };

interface Waiting {
  resolve: (answer: unknown) => void;
  reject: (err: Error) => void;
}

export class ThreadCalls<Job extends object> {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;

  constructor(
    /** The thread's module under workers/, without its extension. */
    private readonly module: string,
    private readonly workerData: unknown = {},
    /** What the thread is, for the error when it is lost. */
    private readonly name = 'worker thread',
  ) {}

  /** Sends `job` (the buffers in `move` are moved, not copied) and waits for the answer. */
  call<T>(job: Job, move: ArrayBuffer[] = []): Promise<T> {
    const worker = (this.worker ??= this.start());
    if (this.waiting.size === 0) worker.ref();
    const id = ++this.lastId;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (answer: unknown) => void, reject });
      worker.postMessage({ ...job, id } satisfies Call, move);
    });
  }

  private start(): Worker {
    const { filename, execArgv } = workerEntry(this.module);
    const worker = new Worker(filename, { execArgv, workerData: this.workerData });
    worker.unref();
    worker.on('message', ({ id, answer, error }: Reply) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(answer);
    });
    const lost = (err: Error): void => {
      // The next call starts a new thread; the calls in flight fail.
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(err);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the ${this.name} exited (code ${code})`)));
    return worker;
  }
}

/** The thread's side: answers each call with `handle(job)`, in order; a throw fails that call alone. */
export function answerCalls<Job extends object>(handle: (job: Job) => unknown): void {
  if (!parentPort) throw new Error('answerCalls runs in a worker thread');
  const port = parentPort;
  port.on('message', (job: Job & Call) => {
    let reply: Reply;
    let moved: ArrayBuffer[] = [];
    try {
      const answer = handle(job);
      reply = { id: job.id, answer };
      if (
        ArrayBuffer.isView(answer) &&
        answer.buffer instanceof ArrayBuffer &&
        answer.byteOffset === 0 &&
        answer.byteLength === answer.buffer.byteLength
      )
        moved = [answer.buffer];
    } catch (err) {
      reply = { id: job.id, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply, moved);
  });
}
