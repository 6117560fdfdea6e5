/** The password hash thread (src/music/services/hash-thread.ts): Argon2id and scrypt at a lower CPU priority. */
import { argon2Sync, scryptSync } from 'node:crypto';
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { answerCalls } from '../src/core/thread-calls.js';
import type { HashThreadData, HashThreadJob } from '../src/music/services/hash-thread.js';

// On Linux, setpriority(2) on "process 0" sets the calling thread's niceness alone; never raise it.
try {
  setPriority(0, Math.max(getPriority(0), (workerData as HashThreadData).niceness));
} catch {
  // Not permitted here: the hashes run at the process's priority, the queue still bounds them.
}

answerCalls<HashThreadJob>((job) => {
  switch (job.kind) {
    case 'niceness':
      return getPriority(0);
    case 'argon2id':
      return argon2Sync('argon2id', {
        message: job.password,
        nonce: job.salt,
        memory: job.memory,
        passes: job.passes,
        parallelism: job.parallelism,
        tagLength: job.tagLength,
      });
    case 'scrypt':
      return scryptSync(job.password, job.salt, job.keyLength, {
        N: job.N,
        r: job.r,
        p: job.p,
        maxmem: job.maxmem,
      });
  }
});
