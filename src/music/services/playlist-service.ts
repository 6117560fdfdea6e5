/**
 * Playlists: one data model for the web player (REST /api/v1/playlists) and Subsonic clients
 * (createPlaylist, getPlaylists, ...): the same rows, the same rules. A playlist is read as a
 * track is (visibility-policy.ts: public for anyone, private for its owner and admins); each of its
 * songs is still checked on its own, so a private track in a public playlist stays hidden from others.
 */
import { cutText } from '../../core/text-length.js';
import type { AuthContext } from '../auth-context.js';
import {
  NIL_UUID,
  type SongRow,
  type Viewer as LibraryViewer,
} from '../repositories/subsonic/library-model.js';
import type {
  PlaylistHeader,
  PlaylistRecord,
  PlaylistSongSummary,
} from '../repositories/subsonic/state-repository.js';
import {
  playlistChangeForbidden,
  playlistNameBlank,
  playlistNotFound,
  tooManyPlaylists,
  tooManyPlaylistTracks,
  unknownPlaylistTracks,
} from '../errors/playlists.js';
import { isUuid } from '../uuid.js';
import { durationSeconds, imageUrl, trackListItem } from './track-list-item.js';
import { mayReadPlaylist, type Viewer } from './visibility-policy.js';

/** Bounds of a playlist (the Subsonic endpoints keep the same). */
export const PLAYLIST_LIMITS = { nameLength: 200, tracks: 10_000, perOwner: 500, othersListed: 500 } as const;

export interface PlaylistStore {
  findPlaylist(id: string): Promise<PlaylistRecord | undefined>;
  ownPlaylists(ownerUserId: string, limit: number): Promise<PlaylistHeader[]>;
  createPlaylist(
    ownerUserId: string,
    fields: { name: string; public?: boolean; trackIds: string[] },
    maxPerOwner?: number,
  ): Promise<string | undefined>;
  updatePlaylist(
    id: string,
    changes: {
      name?: string;
      comment?: string;
      public?: boolean;
      trackIds?: (current: string[]) => string[];
    },
  ): Promise<boolean>;
  deletePlaylist(id: string): Promise<void>;
  playlistSongSummaries(viewer: LibraryViewer, playlistIds: string[]): Promise<PlaylistSongSummary[]>;
}

export interface PlaylistSongs {
  songsByIds(v: LibraryViewer, ids: string[]): Promise<SongRow[]>;
}

export interface PlaylistChanges {
  name?: string;
  public?: boolean;
  trackIds?: string[];
}

const policyViewer = (auth: AuthContext | undefined): Viewer =>
  auth ? { userId: auth.userId, role: auth.role } : undefined;
const libraryViewer = (auth: AuthContext | undefined): LibraryViewer =>
  auth ? { userId: auth.userId, role: auth.role } : { userId: NIL_UUID };

/** A name as stored: trimmed, not blank (control characters are refused by the schemas). */
export function playlistName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw playlistNameBlank();
  return cutText(trimmed, PLAYLIST_LIMITS.nameLength);
}

/**
 * A playlist's entries after a caller's edit: `seen` is the new order of what the caller can play;
 * each entry they cannot (a track its owner has since made private, never shown to them) stays
 * right after the playable entry it followed, or first when that one was removed.
 */
export function keepUnseenEntries(current: string[], seen: string[], playable: Set<string>): string[] {
  // A playable entry is its id and which occurrence of that id it is (a song may be listed twice).
  const counts = new Map<string, number>();
  const occurrence = (id: string) => {
    const n = counts.get(id) ?? 0;
    counts.set(id, n + 1);
    return `${n}:${id}`;
  };
  const kept = new Set(seen.map(occurrence));
  counts.clear();
  const after = new Map<string, string[]>([['', []]]);
  let anchor = '';
  for (const id of current) {
    if (!playable.has(id)) after.get(anchor)!.push(id);
    else {
      const key = occurrence(id);
      if (kept.has(key)) after.set((anchor = key), []);
    }
  }
  counts.clear();
  return [...after.get('')!, ...seen.flatMap((id) => [id, ...(after.get(occurrence(id)) ?? [])])];
}

export class PlaylistService {
  constructor(
    private readonly store: PlaylistStore,
    private readonly songs: PlaylistSongs,
  ) {}

  /** The playlist, when this caller may read it; else the same 404 as one that does not exist. */
  async readable(auth: AuthContext | undefined, id: string): Promise<PlaylistRecord> {
    const p = isUuid(id) ? await this.store.findPlaylist(id.toLowerCase()) : undefined;
    if (!p || !mayReadPlaylist(policyViewer(auth), p)) throw playlistNotFound();
    return p;
  }

  /** The caller's own playlist (an admin reads a private one but changes none but theirs). */
  async owned(auth: AuthContext, id: string): Promise<PlaylistRecord> {
    const p = await this.readable(auth, id);
    if (p.ownerUserId !== auth.userId) throw playlistChangeForbidden();
    return p;
  }

  /** Track ids a playlist may hold: each a track the caller may play, at most PLAYLIST_LIMITS.tracks. */
  async checkedTrackIds(auth: AuthContext, ids: string[]): Promise<string[]> {
    if (ids.length > PLAYLIST_LIMITS.tracks) throw tooManyPlaylistTracks(PLAYLIST_LIMITS.tracks, ids.length);
    const wellFormed = ids.filter(isUuid).map((id) => id.toLowerCase());
    const found = new Set(
      (await this.songs.songsByIds(libraryViewer(auth), [...new Set(wellFormed)])).map((s) => s.id),
    );
    const unknown = [...new Set(ids.filter((id) => !isUuid(id) || !found.has(id.toLowerCase())))];
    if (unknown.length > 0) throw unknownPlaylistTracks(unknown);
    return ids.map((id) => id.toLowerCase());
  }

  /** The new entries as a function of the current ones (keepUnseenEntries), checked as a whole. */
  private async editedEntries(auth: AuthContext, p: PlaylistRecord, ids: string[]) {
    const seen = await this.checkedTrackIds(auth, ids);
    const playable = new Set([...seen, ...(await this.visibleSongs(auth, p)).map((s) => s.id)]);
    return (current: string[]): string[] => {
      const next = keepUnseenEntries(current, seen, playable);
      if (next.length > PLAYLIST_LIMITS.tracks)
        throw tooManyPlaylistTracks(PLAYLIST_LIMITS.tracks, next.length);
      return next;
    };
  }

  /** The songs of a playlist this caller may play, in playlist order (the others are left out). */
  async visibleSongs(auth: AuthContext | undefined, p: PlaylistRecord): Promise<SongRow[]> {
    const rows = await this.songs.songsByIds(libraryViewer(auth), [...new Set(p.trackIds)]);
    const byId = new Map(rows.map((s) => [s.id, s]));
    return p.trackIds.flatMap((id) => byId.get(id) ?? []);
  }

  /** A new playlist of the caller's; undefined name/public/tracks take their defaults. */
  async createOwn(auth: AuthContext, fields: { name: string; public?: boolean; trackIds: string[] }) {
    const trackIds = await this.checkedTrackIds(auth, fields.trackIds);
    const id = await this.store.createPlaylist(
      auth.userId,
      {
        name: playlistName(fields.name),
        trackIds,
        ...(fields.public !== undefined ? { public: fields.public } : {}),
      },
      PLAYLIST_LIMITS.perOwner,
    );
    if (id === undefined) throw tooManyPlaylists(PLAYLIST_LIMITS.perOwner);
    return id;
  }

  /** `trackIds` is the new order of the songs the caller sees; the ones they do not see are kept. */
  async changeOwn(auth: AuthContext, id: string, changes: PlaylistChanges & { comment?: string }) {
    const p = await this.owned(auth, id);
    const found = await this.store.updatePlaylist(p.id, {
      ...(changes.name !== undefined ? { name: playlistName(changes.name) } : {}),
      ...(changes.comment !== undefined ? { comment: cutText(changes.comment, 2000) } : {}),
      ...(changes.public !== undefined ? { public: changes.public } : {}),
      ...(changes.trackIds !== undefined
        ? { trackIds: await this.editedEntries(auth, p, changes.trackIds) }
        : {}),
    });
    // Deleted by a request that ran between reading it and changing it.
    if (!found) throw playlistNotFound();
    return p.id;
  }

  async deleteOwn(auth: AuthContext, id: string): Promise<void> {
    await this.store.deletePlaylist((await this.owned(auth, id)).id);
  }

  // REST answers (docs/music-domain.md, "Playlists").

  async mine(auth: AuthContext) {
    const lists = await this.store.ownPlaylists(auth.userId, PLAYLIST_LIMITS.perOwner);
    const sums = new Map(
      (
        await this.store.playlistSongSummaries(
          libraryViewer(auth),
          lists.map((p) => p.id),
        )
      ).map((s) => [s.playlistId, s]),
    );
    return {
      items: lists.map((p) => {
        const sum = sums.get(p.id);
        return {
          id: p.id,
          name: p.name,
          public: p.public,
          track_count: sum?.trackCount ?? 0,
          duration_seconds: durationSeconds(sum?.durationMs ?? 0),
          cover_url: imageUrl(sum?.coverKey ?? null),
          created_at: p.createdAt.toISOString(),
          updated_at: p.updatedAt.toISOString(),
        };
      }),
    };
  }

  async view(auth: AuthContext | undefined, id: string) {
    const p = await this.readable(auth, id);
    const songs = await this.visibleSongs(auth, p);
    return {
      id: p.id,
      name: p.name,
      public: p.public,
      owner: { handle: p.ownerHandle, display_name: p.ownerName },
      mine: auth?.userId === p.ownerUserId,
      track_count: songs.length,
      duration_seconds: durationSeconds(songs.reduce((sum, s) => sum + (s.duration_ms ?? 0), 0)),
      cover_url: imageUrl(songs.find((s) => s.artwork_key)?.artwork_key ?? null),
      created_at: p.createdAt.toISOString(),
      updated_at: p.updatedAt.toISOString(),
      tracks: songs.map(trackListItem),
    };
  }

  async create(auth: AuthContext, body: { name: string; public?: boolean; track_ids?: string[] }) {
    const id = await this.createOwn(auth, {
      name: body.name,
      trackIds: body.track_ids ?? [],
      ...(body.public !== undefined ? { public: body.public } : {}),
    });
    return this.view(auth, id);
  }

  async update(
    auth: AuthContext,
    id: string,
    body: { name?: string; public?: boolean; track_ids?: string[] },
  ) {
    const { track_ids: trackIds, ...rest } = body;
    return this.view(auth, await this.changeOwn(auth, id, { ...rest, ...(trackIds ? { trackIds } : {}) }));
  }
}
