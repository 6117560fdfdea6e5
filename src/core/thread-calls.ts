/**
 * A worker thread that answers calls in the order they are sent, for CPU work that must not run
 * on the event loop (password hashes, digests of large bodies). Its body is plain JavaScript
 * defining `handle(job)`, so it needs no loader under tsx and no built file; it takes Node's
 * modules with `process.getBuiltinModule` (no `require` or `import`: it runs as a script or as a
 * module, as the process's flags say); `workerData` is in scope. An answer that is a byte view
 * owning its whole buffer is moved back, not copied. The thread starts on first use and keeps the
 * process alive only while it owes an answer.
 */
import { Worker } from 'node:worker_threads';

const LOOP = `
parentPort.on('message', (job) => {
  let reply;
  let moved = [];
  try {
    const answer = handle(job);
    reply = { id: job.id, answer };
    if (ArrayBuffer.isView(answer) && answer.buffer instanceof ArrayBuffer && answer.byteOffset === 0
      && answer.byteLength === answer.buffer.byteLength) moved = [answer.buffer];
  } catch (err) {
    reply = { id: job.id, error: String((err && err.message) || err) };
  }
  parentPort.postMessage(reply, moved);
});
`;

interface Waiting {
  resolve: (answer: unknown) => void;
  reject: (err: Error) => void;
}

export class ThreadCalls {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;

  constructor(
    /** JavaScript defining `function handle(job)`; `parentPort` and `workerData` are in scope, modules come from `process.getBuiltinModule`. */
    private readonly body: string,
    private readonly workerData: unknown = {},
    /** What the thread is, for the error when it is lost. */
    private readonly name = 'worker thread',
  ) {}

  /** Sends `job` (the buffers in `move` are moved, not copied) and waits for the answer. */
  call<T>(job: object, move: ArrayBuffer[] = []): Promise<T> {
    const worker = (this.worker ??= this.start());
    if (this.waiting.size === 0) worker.ref();
    const id = ++this.lastId;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (answer: unknown) => void, reject });
      worker.postMessage({ ...job, id }, move);
    });
  }

  private start(): Worker {
    const source = `const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');\n${this.body}\n${LOOP}`;
    const worker = new Worker(source, { eval: true, workerData: this.workerData });
    worker.unref();
    worker.on('message', ({ id, answer, error }: { id: number; answer?: unknown; error?: string }) => {
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
