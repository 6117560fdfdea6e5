/** The digest thread (src/core/repositories/digest-thread.ts): MD5 and SHA-256 of bodies, a block at a time. */
import { createHash, type Hash } from 'node:crypto';
import { answerCalls } from '../src/core/thread-calls.js';
import type { DigestJob } from '../src/core/repositories/digest-thread.js';

const hashes = new Map<number, Hash>();

function started(digest: number): Hash {
  const hash = hashes.get(digest);
  if (!hash) throw new Error(`digest ${digest} was not started or has ended`);
  return hash;
}

answerCalls<DigestJob>((job) => {
  switch (job.kind) {
    case 'start':
      hashes.set(job.digest, createHash(job.algorithm));
      return null;
    case 'update':
      started(job.digest).update(job.bytes.subarray(0, job.length));
      // The transit buffer goes back to be reused.
      return job.bytes;
    case 'end': {
      const hex = started(job.digest).digest('hex');
      hashes.delete(job.digest);
      return hex;
    }
    case 'drop':
      hashes.delete(job.digest);
      return null;
  }
});
