/** Spools one uploaded log to a file while hashing it; a size-limit error from the stream is a 413. */
import type { Readable } from 'node:stream';
import type { AppError } from '../../core/errors.js';
import { spoolToFile } from '../../core/repositories/spool-file.js';
import { logTooLarge } from '../errors.js';

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
  return logTooLarge(part, MAX_LOG_BYTES);
}
