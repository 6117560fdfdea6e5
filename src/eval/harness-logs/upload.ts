/** Spools one uploaded log to a file while hashing it; a size-limit error from the stream is a 413. */
import type { Readable } from 'node:stream';
import { AppError } from '../../core/errors.js';
import { spoolToFile } from '../../core/repositories/spool-file.js';

export const MAX_LOG_BYTES = 64 * 1024 * 1024;

export async function spoolLog(stream: Readable, path: string, part: string): Promise<string> {
  try {
    return (await spoolToFile(stream, path, 'sha256')).digest;
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(part);
    throw err;
  }
}

export function tooLarge(part: string): AppError {
  return new AppError(
    'payload_too_large',
    `The ${part} file is larger than ${MAX_LOG_BYTES / (1024 * 1024)} MB (${MAX_LOG_BYTES} bytes), the limit per log; gate a smaller log (e.g. fewer samples or one task per file).`,
  );
}
