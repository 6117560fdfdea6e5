/** Spools one uploaded log to a file while hashing it; a size-limit error from the stream is a 413. */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../core/errors.js';

export const MAX_LOG_BYTES = 64 * 1024 * 1024;

export async function spoolLog(stream: Readable, path: string, part: string): Promise<string> {
  const hash = createHash('sha256');
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  try {
    await pipeline(stream, meter, createWriteStream(path));
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(part);
    throw err;
  }
  return hash.digest('hex');
}

export function tooLarge(part: string): AppError {
  return new AppError(
    'payload_too_large',
    `The ${part} file is larger than ${MAX_LOG_BYTES / (1024 * 1024)} MB (${MAX_LOG_BYTES} bytes), the limit per log; gate a smaller log (e.g. fewer samples or one task per file).`,
  );
}
