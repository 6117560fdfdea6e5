/**
 * PUT/DELETE /api/v1/users/me/picture: the bytes are probed by ffprobe and re-encoded by ffmpeg
 * (ffmpeg-commands/picture-args.ts); the client's Content-Type decides nothing. Served by /images/.
 */
import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../auth-context.js';
import { MAX_PICTURE_PIXELS } from '../ffmpeg-commands/picture-args.js';
import { accountGone, emptyPicture, notAPicture, pictureTooLarge } from '../errors/users.js';
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
    const encoded = await this.encoder.encode(bytes, auth.userId);
    if (!encoded.ok)
      throw 'pixels' in encoded
        ? pictureTooLarge(encoded.width, encoded.height, MAX_PICTURE_PIXELS)
        : notAPicture(encoded.found);
    const key = `users/${auth.userId}/${randomUUID()}.jpg`;
    await this.images.put(key, encoded.jpeg, { contentType: 'image/jpeg' });
    try {
      return privateUser(await this.replace(auth.userId, key));
    } catch (err) {
      // Never pointed at (account gone, database down): its bytes must not stay behind.
      await this.images.delete(key).catch(() => undefined);
      throw err;
    }
  }

  async remove(auth: AuthContext): Promise<PrivateUser> {
    return privateUser(await this.replace(auth.userId, null));
  }

  /** Points the account at the new picture and deletes the bytes of the one it replaced. */
  private async replace(userId: string, key: string | null) {
    const changed = await this.users.setPicture(userId, key);
    if (!changed) throw accountGone();
    if (changed.replaced && changed.replaced !== key) {
      await this.images.delete(changed.replaced);
      this.forget(changed.replaced);
    }
    return changed.user;
  }
}
