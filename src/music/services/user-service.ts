/** Public profiles: a user's handle, display name and public tracks, cursor-paginated. */
import type { ProfileRepository, ProfileTrackRow } from '../repositories/profile-repository.js';
import { normaliseHandle } from './auth-service.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';
import { userNotFound } from '../errors/users.js';
import { imageUrl } from './track-list-item.js';

export interface PublicTrack {
  id: string;
  title: string;
  description: string;
  owner_user_id: string;
  created_at: string;
  updated_at: string;
}

export interface PublicProfile {
  handle: string;
  display_name: string;
  bio: string;
  picture_url: string | null;
  created_at: string;
  tracks: { items: PublicTrack[]; next_cursor: string | null };
}

function publicTrack(t: ProfileTrackRow): PublicTrack {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    owner_user_id: t.ownerUserId,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

export class UserService {
  constructor(private readonly profiles: ProfileRepository) {}

  async publicProfile(handle: string, page: { limit: number; cursor?: string }): Promise<PublicProfile> {
    const cursor = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    // One extra row tells whether another page exists.
    const user = await this.profiles.findByHandle(normaliseHandle(handle), page.limit + 1, cursor);
    if (!user) throw userNotFound(handle);
    const rows = user.tracks;
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      handle: user.handle,
      display_name: user.displayName,
      bio: user.bio,
      picture_url: imageUrl(user.pictureKey),
      created_at: user.createdAt.toISOString(),
      tracks: {
        items: items.map(publicTrack),
        next_cursor: rows.length > page.limit && last ? encodeCursor(last) : null,
      },
    };
  }
}
