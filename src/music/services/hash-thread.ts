/**
 * The password hashes' own thread (Argon2id, and scrypt for the earlier format), at a lower CPU
 * priority than the event loop. On libuv's pool a hash ran at the event loop's priority: under a
 * login flood on a busy machine the hash work took twice the event loop's CPU and health answers
 * waited seconds (bench/results/login-flood.md). Niced, the hashes use what the event loop leaves
 * and the hash queue (hash-queue.ts) answers 503 when they fall behind. One thread, as the queue
 * runs one hash at a time (core/thread-calls.ts).
 */
import { ThreadCalls } from '../../core/thread-calls.js';

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

// On Linux, setpriority(2) on "process 0" sets the calling thread's niceness alone.
const THREAD_BODY = `
const { argon2Sync, scryptSync } = process.getBuiltinModule('node:crypto');
const { getPriority, setPriority } = process.getBuiltinModule('node:os');
try { setPriority(0, Math.max(getPriority(0), workerData.niceness)); } catch {}
function handle(job) {
  if (job.kind === 'niceness') return getPriority(0);
  if (job.kind === 'argon2id')
    return argon2Sync('argon2id', { message: job.password, nonce: job.salt, memory: job.memory,
      passes: job.passes, parallelism: job.parallelism, tagLength: job.tagLength });
  return scryptSync(job.password, job.salt, job.keyLength, { N: job.N, r: job.r, p: job.p, maxmem: job.maxmem });
}
`;

export class HashThread {
  private readonly thread: ThreadCalls;

  constructor(niceness = HASH_THREAD_NICENESS) {
    this.thread = new ThreadCalls(THREAD_BODY, { niceness }, 'password hash thread');
  }

  async hash(job: Argon2Job | ScryptJob): Promise<Buffer> {
    const key = await this.thread.call<Uint8Array>(job);
    return Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  }

  /** The niceness the thread runs at (read by the thread itself). */
  threadNiceness(): Promise<number> {
    return this.thread.call<number>({ kind: 'niceness' });
  }
}

/** The process's hash thread, behind the hash queue's bound. */
export const passwordHashThread = new HashThread();
