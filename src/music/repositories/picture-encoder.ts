/**
 * A profile picture's bytes, probed by ffprobe and re-encoded by ffmpeg in a private temp folder
 * (ffmpeg-commands/picture-args.ts): the JPEG this code made, or what was found instead.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConcurrencyLimit } from '../../core/concurrency-limit.js';
import {
  judgePictureProbe,
  pictureArgs,
  pictureProbeArgs,
  type PictureVerdict,
} from '../ffmpeg-commands/picture-args.js';
import { pictureInFlight, picturesBusy } from '../errors/users.js';
import type { FfmpegRunner } from './ffmpeg-runner.js';

export type EncodedPicture = { ok: true; jpeg: Buffer } | Exclude<PictureVerdict, { ok: true }>;

/**
 * Encodes at once (each decodes up to MAX_PICTURE_PIXELS) and waiting (their bytes in memory),
 * and one account's in either at a time (in this process), so one account cannot fill the queue.
 */
const PICTURE_ENCODES = { atOnce: 2, waiting: 16, perAccount: 1 } as const;

export class PictureEncoder {
  private readonly limit: ConcurrencyLimit;

  constructor(
    private readonly ffmpeg: FfmpegRunner,
    private readonly tmpRoot: string,
    bounds: { atOnce: number; waiting: number; perAccount: number } = PICTURE_ENCODES,
  ) {
    this.limit = new ConcurrencyLimit(bounds.atOnce, bounds.waiting, picturesBusy, {
      most: bounds.perAccount,
      full: pictureInFlight,
    });
  }

  /**
   * The picture as this code's JPEG; at most PICTURE_ENCODES.atOnce at once, a 503 past the
   * queue, a 429 while the account's previous picture is still in the encoder.
   */
  encode(bytes: Buffer, accountId: string): Promise<EncodedPicture> {
    return this.limit.run(() => this.encodeNow(bytes), accountId);
  }

  private async encodeNow(bytes: Buffer): Promise<EncodedPicture> {
    await mkdir(this.tmpRoot, { recursive: true });
    const dir = await mkdtemp(join(this.tmpRoot, 'picture-'));
    try {
      const input = join(dir, 'input');
      const output = join(dir, 'picture.jpg');
      await writeFile(input, bytes);
      const verdict = await this.ffmpeg
        .ffprobe(pictureProbeArgs(input), { timeoutMs: 15_000 })
        .then(judgePictureProbe, () => ({ ok: false as const, found: 'nothing ffprobe could read' }));
      if (!verdict.ok) return verdict;
      const made = await this.ffmpeg.ffmpeg(pictureArgs(input, output), { timeoutMs: 30_000 }).then(
        () => true,
        () => false,
      );
      if (!made) return { ok: false, found: 'a picture ffmpeg could not decode' };
      return { ok: true, jpeg: await readFile(output) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
