/**
 * PUT/DELETE /api/v1/users/me/picture: the bytes are probed by ffprobe and re-encoded by ffmpeg
 * (ffmpeg-commands/picture-args.ts); the client's Content-Type decides nothing. Served by /images/.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuthContext } from '../auth-context.js';
import { accountGone, emptyPicture, notAPicture } from '../errors/users.js';
import { judgePictureProbe, pictureArgs, pictureProbeArgs } from '../ffmpeg-commands/picture-args.js';
import type { FfmpegRunner } from '../repositories/ffmpeg-runner.js';
import type { ObjectStore } from '../repositories/object-store/object-store.js';
import type { UserRepository } from '../repositories/user-repository.js';
import { privateUser, type PrivateUser } from './auth-service.js';

/** The body limit of PUT /api/v1/users/me/picture. */
export const PICTURE_BODY_LIMIT = 10 * 1024 * 1024;

export class ProfilePictureService {
  constructor(
    private readonly users: UserRepository,
    private readonly images: ObjectStore,
    private readonly ffmpeg: FfmpegRunner,
    private readonly tmpRoot: string,
    /** Drops a deleted picture from this process's hot-object cache. */
    private readonly forget: (key: string) => void = () => undefined,
  ) {}

  async set(auth: AuthContext, bytes: Buffer): Promise<PrivateUser> {
    if (bytes.length === 0) throw emptyPicture();
    await mkdir(this.tmpRoot, { recursive: true });
    const dir = await mkdtemp(join(this.tmpRoot, 'picture-'));
    try {
      const input = join(dir, 'input');
      const output = join(dir, 'picture.jpg');
      await writeFile(input, bytes);
      const verdict = await this.ffmpeg
        .ffprobe(pictureProbeArgs(input), { timeoutMs: 15_000 })
        .then(judgePictureProbe, () => ({ ok: false as const, found: 'nothing ffprobe could read' }));
      if (!verdict.ok) throw notAPicture(verdict.found);
      await this.ffmpeg.ffmpeg(pictureArgs(input, output), { timeoutMs: 30_000 }).catch(() => {
        throw notAPicture('a picture ffmpeg could not decode');
      });
      const key = `users/${auth.userId}/${randomUUID()}.jpg`;
      await this.images.put(key, await readFile(output), { contentType: 'image/jpeg' });
      return privateUser(await this.replace(auth.userId, key));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async remove(auth: AuthContext): Promise<PrivateUser> {
    return privateUser(await this.replace(auth.userId, null));
  }

  /** Points the account at the new picture, then deletes the old one's bytes. */
  private async replace(userId: string, key: string | null) {
    const before = await this.users.findById(userId);
    if (!before) throw accountGone();
    const after = await this.users.setPicture(userId, key);
    if (before.pictureKey && before.pictureKey !== key) {
      await this.images.delete(before.pictureKey);
      this.forget(before.pictureKey);
    }
    return after;
  }
}
