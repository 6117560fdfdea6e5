/**
 * Reads an object at most once: hashes it (sha256, unless the store already did) and runs
 * ffprobe on a file (m4a keeps its index at the end, so ffprobe needs a seekable input): the
 * store's own file when it has one, else a temporary copy spooled while hashing. ffprobe runs
 * through the one runner with the one argument builder (ffmpeg-commands/probe.ts parses what it prints).
 */
import { cutText } from '../../core/text-length.js';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { spoolToFile } from '../../core/repositories/spool-file.js';
import { withoutHeapAddresses } from '../ffmpeg-commands/ffmpeg-output.js';
import { probeArgs } from '../ffmpeg-commands/probe.js';
import { FfmpegRunner } from './ffmpeg-runner.js';

const PROBE_TIMEOUT_MS = 60_000;

export interface SpooledProbe {
  sha256: string;
  size: number;
  /** ffprobe's parsed JSON, or undefined when ffprobe could not read the file at all. */
  raw: unknown;
  /** ffprobe's complaint when it failed. */
  error: string | undefined;
}

/**
 * What to probe: a file on this machine (read in place; not read at all when its sha256 is
 * already known) or a stream (spooled to a file first).
 */
export type ProbeSource = { file: string; sha256?: string } | { body: Readable };

export async function probeAudio(
  source: ProbeSource,
  tmpDir: string,
  runner = new FfmpegRunner(),
): Promise<SpooledProbe> {
  const ffprobe = (file: string) => describe(runner, file);
  if ('file' in source && source.sha256 !== undefined) {
    const { size } = await stat(source.file);
    return { sha256: source.sha256, size, ...(await ffprobe(source.file)) };
  }
  if ('file' in source) {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(source.file, { highWaterMark: 1024 * 1024 })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { sha256: hash.digest('hex'), size, ...(await ffprobe(source.file)) };
  }
  await mkdir(tmpDir, { recursive: true });
  const file = join(tmpDir, `probe-${randomUUID()}`);
  try {
    const { digest: sha256, size } = await spoolToFile(source.body, file, 'sha256');
    return { sha256, size, ...(await ffprobe(file)) };
  } finally {
    await rm(file, { force: true });
  }
}

async function describe(runner: FfmpegRunner, file: string): Promise<Pick<SpooledProbe, 'raw' | 'error'>> {
  try {
    const stdout = await runner.ffprobe(probeArgs(file), { timeoutMs: PROBE_TIMEOUT_MS });
    return { raw: JSON.parse(stdout) as unknown, error: undefined };
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    // ffprobe names the file; the client only needs the reason.
    const line = stderr.split(file).join('the file').trim().split('\n')[0] ?? '';
    const reason = withoutHeapAddresses(line) || 'unreadable';
    return { raw: undefined, error: cutText(reason, 300) };
  }
}
