/**
 * PUT/DELETE /api/v1/users/me/picture: the bytes are probed by ffprobe and re-encoded by ffmpeg
 * (ffmpeg-commands/picture-args.ts); the client's Content-Type decides nothing. Served by /images/.
 */
import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../auth-context.js';
import { accountGone, emptyPicture, notAPicture } from '../errors/users.js';
import type { PictureEncoder } from '../repositories/picture-encoder.js';
import type { ObjectStore } from '../repositories/object-store/object-store.js';
import type { UserRepository } from '../repositories/user-repository.js';
import { privateUser, type PrivateUser } from './auth-service.js';

/** The body limit of PUT /api/v1/users/me/picture. */
export const PICTURE_BODY_LIMIT = 10 * 1024 * 1024;

export class ProfilePictureService {
  constructor(
    private readonly users: UserRepository,
    private readonly images: ObjectStore,
    private readonly encoder: PictureEncoder,
    /** Drops a deleted picture from this process's hot-object cache. */
    private readonly forget: (key: string) => void = () => undefined,
  ) {}

  async set(auth: AuthContext, bytes: Buffer): Promise<PrivateUser> {
    if (bytes.length === 0) throw emptyPicture();
    const encoded = await this.encoder.encode(bytes);
    if (!encoded.ok) throw notAPicture(encoded.found);
    const key = `users/${auth.userId}/${randomUUID()}.jpg`;
    await this.images.put(key, encoded.jpeg, { contentType: 'image/jpeg' });
    return privateUser(await this.replace(auth.userId, key));
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
