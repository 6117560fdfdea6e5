/**
 * The password hashes' own thread (Argon2id, and scrypt for the earlier format), at a lower CPU
 * priority than the event loop. On libuv's pool a hash ran at the event loop's priority: under a
 * login flood on a busy machine the hash work took twice the event loop's CPU and health answers
 * waited seconds (bench/results/login-flood.md). Niced, the hashes use what the event loop leaves
 * and the hash queue (hash-queue.ts) answers 503 when they fall behind. One thread, as the queue
 * runs one hash at a time (workers/password-hash.ts, through core/thread-calls.ts).
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

/** What the hash thread (workers/password-hash.ts) is asked: a hash, or its own niceness. */
export type HashThreadJob = Argon2Job | ScryptJob | { kind: 'niceness' };

/** What the hash thread receives once, at start. */
export interface HashThreadData {
  niceness: number;
}

export class HashThread {
  private readonly thread: ThreadCalls<HashThreadJob>;

  constructor(niceness = HASH_THREAD_NICENESS) {
    const data: HashThreadData = { niceness };
    this.thread = new ThreadCalls('password-hash', data, 'password hash thread');
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
