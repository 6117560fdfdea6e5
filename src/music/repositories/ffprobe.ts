/**
 * Reads an object once: spools it to a temporary file while hashing it (sha256), then runs
 * ffprobe on the file (m4a keeps its index at the end, so ffprobe needs a seekable input).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { spoolToFile } from '../../core/spool-file.js';

const run = promisify(execFile);

export interface SpooledProbe {
  sha256: string;
  size: number;
  /** ffprobe's parsed JSON, or undefined when ffprobe could not read the file at all. */
  raw: unknown;
  /** ffprobe's complaint when it failed. */
  error: string | undefined;
}

export async function spoolAndProbe(body: Readable, tmpDir: string): Promise<SpooledProbe> {
  await mkdir(tmpDir, { recursive: true });
  const file = join(tmpDir, `probe-${randomUUID()}`);
  try {
    const { digest: sha256, size } = await spoolToFile(body, file, 'sha256');
    try {
      const { stdout } = await run(
        'ffprobe',
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
        { maxBuffer: 16 * 1024 * 1024, timeout: 60_000 },
      );
      return { sha256, size, raw: JSON.parse(stdout) as unknown, error: undefined };
    } catch (err) {
      const stderr = (err as { stderr?: string }).stderr ?? '';
      // ffprobe names the temporary file; the client only needs the reason.
      const reason = stderr.split(file).join('the file').trim().split('\n')[0] || 'unreadable';
      return { sha256, size, raw: undefined, error: reason.slice(0, 300) };
    }
  } finally {
    await rm(file, { force: true });
  }
}
