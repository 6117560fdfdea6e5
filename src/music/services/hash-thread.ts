/**
 * The password hashes' own thread (Argon2id, and scrypt for the earlier format), at a lower CPU
 * priority than the event loop. On libuv's pool a hash ran at the event loop's priority: under a
 * login flood on a busy machine the hash work took twice the event loop's CPU and health answers
 * waited seconds (bench/results/login-flood.md). Niced, the hashes use what the event loop leaves
 * and the hash queue (hash-queue.ts) answers 503 when they fall behind. One thread, as the queue
 * runs one hash at a time; started on first use, it keeps the process alive only while a hash runs.
 */
import { Worker } from 'node:worker_threads';

/** The hash thread's niceness (the event loop's is the process's, usually 0; 19 is the lowest). */
export const HASH_THREAD_NICENESS = 10;

export interface Argon2Job {
  kind: 'argon2id';
  password: string;
  salt: Buffer;
  memory: number;
  passes: number;
  parallelism: number;
  tagLength: number;
}

export interface ScryptJob {
  kind: 'scrypt';
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

// Plain JavaScript run as the thread's body, so it needs no loader under tsx and no built file.
// On Linux, setpriority(2) on "process 0" sets the calling thread's niceness alone.
const THREAD_BODY = `
const { parentPort, workerData } = require('node:worker_threads');
const { argon2Sync, scryptSync } = require('node:crypto');
const { getPriority, setPriority } = require('node:os');
try { setPriority(0, Math.max(getPriority(0), workerData.niceness)); } catch {}
parentPort.on('message', (job) => {
  try {
    let answer;
    if (job.kind === 'niceness') answer = getPriority(0);
    else if (job.kind === 'argon2id')
      answer = argon2Sync('argon2id', { message: job.password, nonce: job.salt, memory: job.memory,
        passes: job.passes, parallelism: job.parallelism, tagLength: job.tagLength });
    else answer = scryptSync(job.password, job.salt, job.keyLength,
      { N: job.N, r: job.r, p: job.p, maxmem: job.maxmem });
    parentPort.postMessage({ id: job.id, answer });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message || err) });
  }
});
`;

interface Waiting {
  resolve: (answer: unknown) => void;
  reject: (err: Error) => void;
}

export class HashThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;

  constructor(private readonly niceness = HASH_THREAD_NICENESS) {}

  async hash(job: Argon2Job | ScryptJob): Promise<Buffer> {
    const key = (await this.send(job)) as Uint8Array;
    return Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  }

  /** The niceness the thread runs at (read by the thread itself). */
  async threadNiceness(): Promise<number> {
    return (await this.send({ kind: 'niceness' })) as number;
  }

  private send(job: object): Promise<unknown> {
    const worker = (this.worker ??= this.start());
    // Referenced only while it owes an answer: an idle hash thread never keeps the process up.
    if (this.waiting.size === 0) worker.ref();
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...job, id });
    });
  }

  private start(): Worker {
    const worker = new Worker(THREAD_BODY, { eval: true, workerData: { niceness: this.niceness } });
    worker.unref();
    worker.on('message', ({ id, answer, error }: { id: number; answer?: unknown; error?: string }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(answer);
    });
    const lost = (err: Error): void => {
      // The next hash starts a new thread; those in flight fail (their requests answer 500).
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(err);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the password hash thread exited (code ${code})`)));
    return worker;
  }
}

/** The process's hash thread, behind the hash queue's bound. */
export const passwordHashThread = new HashThread();
