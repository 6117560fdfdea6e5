/** Streams bytes into a file while hashing them (unless `algorithm` is undefined); a partial file is removed when the stream fails. */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export async function spoolToFile(
  source: Readable,
  file: string,
  algorithm: 'md5' | 'sha256' | undefined,
): Promise<{ digest: string; size: number }> {
  const hash = algorithm === undefined ? undefined : createHash(algorithm);
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash?.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(file));
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
  return { digest: hash?.digest('hex') ?? '', size };
}
