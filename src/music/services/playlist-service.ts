/**
 * Playlists: one data model for the web player (REST /api/v1/playlists) and Subsonic clients
 * (createPlaylist, getPlaylists, ...): the same rows, the same rules. A playlist is read as a
 * track is (visibility-policy.ts: public for anyone, private for its owner and admins); each of its
 * songs is still checked on its own, so a private track in a public playlist stays hidden from others.
 * Its songs are read a page at a time, in SQL (a playlist may hold 10,000).
 */
import { cutText } from '../../core/text-length.js';
import type { AuthContext } from '../auth-context.js';
import {
  NIL_UUID,
  type SongRow,
  type Viewer as LibraryViewer,
} from '../repositories/subsonic/library-model.js';
import type { CurrentEntry, EntryAt, EntryEdit } from './playlist-entries.js';
import type { PlaylistRecord, PlaylistSongSummary } from '../repositories/subsonic/state-repository.js';
import {
  playlistChangeForbidden,
  playlistChangedSincePage,
  playlistEditsCombined,
  playlistNameBlank,
  playlistNotFound,
  tooManyPlaylists,
  tooManyPlaylistTracks,
  unknownPlaylistTracks,
} from '../errors/playlists.js';
import { isUuid } from '../uuid.js';
import { editedEntries } from './playlist-entries.js';
import { PLAYLIST_LIMITS } from './playlist-limits.js';
import { decodeOffsetCursor, encodeOffsetCursor } from './page-cursor.js';
import { durationSeconds, imageUrl, trackListItem } from './track-list-item.js';
import { mayReadPlaylist, type Viewer } from './visibility-policy.js';

export interface PlaylistStore {
  findPlaylist(id: string): Promise<PlaylistRecord | undefined>;
  ownPlaylists(ownerUserId: string, limit: number): Promise<PlaylistRecord[]>;
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
      entries?: { viewer: LibraryViewer; edit: (current: CurrentEntry[]) => string[] };
    },
  ): Promise<boolean>;
  deletePlaylist(id: string): Promise<void>;
  playlistSongSummaries(viewer: LibraryViewer, playlistIds: string[]): Promise<PlaylistSongSummary[]>;
}

export interface PlaylistSongs {
  songsByIds(v: LibraryViewer, ids: string[]): Promise<SongRow[]>;
  playlistSongs(v: LibraryViewer, playlistId: string, limit: number, offset: number): Promise<SongRow[]>;
}

/** A change of a playlist: its fields, and at most one edit of the songs the caller sees. */
export interface PlaylistChanges {
  name?: string;
  comment?: string;
  public?: boolean;
  entries?: EntryEdit;
}

/** The REST body of PATCH /api/v1/playlists/:id (schemas/playlists.ts). */
export interface PlaylistPatch {
  name?: string;
  public?: boolean;
  track_ids?: string[];
  add_track_ids?: string[];
  remove?: { position: number; track_id: string }[];
  move?: { position: number; track_id: string; to: number };
}

export interface PlaylistPage {
  limit: number;
  cursor?: string;
}

const policyViewer = (auth: AuthContext | undefined): Viewer =>
  auth ? { userId: auth.userId, role: auth.role } : undefined;
const libraryViewer = (auth: AuthContext | undefined): LibraryViewer =>
  auth ? { userId: auth.userId, role: auth.role } : { userId: NIL_UUID };
const at = (a: { position: number; track_id: string }): EntryAt => ({
  position: a.position,
  trackId: a.track_id,
});

/** A name as stored: trimmed, not blank (control characters are refused by the schemas). */
export function playlistName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw playlistNameBlank();
  return cutText(trimmed, PLAYLIST_LIMITS.nameLength);
}

/** The one edit of the entries a REST PATCH asks (undefined when it changes fields only). */
function entryEdit(body: PlaylistPatch): EntryEdit | undefined {
  const kinds = [body.track_ids, body.move, body.remove ?? body.add_track_ids].filter((x) => x !== undefined);
  if (kinds.length > 1) throw playlistEditsCombined();
  if (body.track_ids) return { kind: 'order', trackIds: body.track_ids };
  if (body.move) return { kind: 'move', from: at(body.move), to: body.move.to };
  if (body.remove || body.add_track_ids)
    return { kind: 'splice', remove: (body.remove ?? []).map(at), append: body.add_track_ids ?? [] };
  return undefined;
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
  async checkedTrackIds(auth: AuthContext, ids: string[], path = '/track_ids'): Promise<string[]> {
    if (ids.length > PLAYLIST_LIMITS.tracks)
      throw tooManyPlaylistTracks(PLAYLIST_LIMITS.tracks, ids.length, path);
    const wellFormed = ids.filter(isUuid).map((id) => id.toLowerCase());
    const found = new Set(
      (await this.songs.songsByIds(libraryViewer(auth), [...new Set(wellFormed)])).map((s) => s.id),
    );
    const unknown = [...new Set(ids.filter((id) => !isUuid(id) || !found.has(id.toLowerCase())))];
    if (unknown.length > 0) throw unknownPlaylistTracks(unknown, path);
    return ids.map((id) => id.toLowerCase());
  }

  /** The edit with its new ids checked, so that the lock is held for the rewrite only. */
  private async checkedEdit(auth: AuthContext, edit: EntryEdit): Promise<EntryEdit> {
    if (edit.kind === 'order') return { ...edit, trackIds: await this.checkedTrackIds(auth, edit.trackIds) };
    if (edit.kind === 'splice')
      return { ...edit, append: await this.checkedTrackIds(auth, edit.append, '/add_track_ids') };
    return edit;
  }

  /** `limit` songs of the playlist this caller may play, after the first `offset` of them. */
  songsOf(auth: AuthContext | undefined, p: PlaylistRecord, limit: number, offset = 0): Promise<SongRow[]> {
    return this.songs.playlistSongs(libraryViewer(auth), p.id, limit, offset);
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

  /** Fields and entries in one write; the entries hidden from the caller keep their places. */
  async changeOwn(auth: AuthContext, id: string, changes: PlaylistChanges) {
    const p = await this.owned(auth, id);
    const edit = changes.entries && (await this.checkedEdit(auth, changes.entries));
    const found = await this.store.updatePlaylist(p.id, {
      ...(changes.name !== undefined ? { name: playlistName(changes.name) } : {}),
      ...(changes.comment !== undefined ? { comment: cutText(changes.comment, 2000) } : {}),
      ...(changes.public !== undefined ? { public: changes.public } : {}),
      ...(edit
        ? { entries: { viewer: libraryViewer(auth), edit: (current) => editedEntries(current, edit) } }
        : {}),
    });
    // Deleted by a request that ran between reading it and changing it.
    if (!found) throw playlistNotFound();
    return p.id;
  }

  async deleteOwn(auth: AuthContext, id: string): Promise<void> {
    await this.store.deletePlaylist((await this.owned(auth, id)).id);
  }

  /** How many songs of the playlist the caller may play, their length and the first cover (SQL). */
  async summary(auth: AuthContext | undefined, p: PlaylistRecord) {
    return (await this.store.playlistSongSummaries(libraryViewer(auth), [p.id]))[0];
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

  /** A page of songs: each with its position among those the caller sees (what edits name). */
  private async page(auth: AuthContext | undefined, p: PlaylistRecord, limit: number, offset: number) {
    const rows = await this.songsOf(auth, p, limit + 1, offset);
    return {
      items: rows.slice(0, limit).map((s, i) => ({ ...trackListItem(s), position: offset + i })),
      next_cursor:
        rows.length > limit ? encodeOffsetCursor({ version: p.updatedAt, offset: offset + limit }) : null,
    };
  }

  /** The playlist's fields, its totals (in SQL) and a page of its songs (the first without a cursor). */
  async view(
    auth: AuthContext | undefined,
    id: string,
    page: PlaylistPage = { limit: PLAYLIST_LIMITS.page },
  ) {
    const p = await this.readable(auth, id);
    const [sum, tracks] = await Promise.all([this.summary(auth, p), this.pageAt(auth, p, page)]);
    return {
      id: p.id,
      name: p.name,
      public: p.public,
      owner: { handle: p.ownerHandle, display_name: p.ownerName },
      mine: auth?.userId === p.ownerUserId,
      track_count: sum?.trackCount ?? 0,
      duration_seconds: durationSeconds(sum?.durationMs ?? 0),
      cover_url: imageUrl(sum?.coverKey ?? null),
      created_at: p.createdAt.toISOString(),
      updated_at: p.updatedAt.toISOString(),
      tracks,
    };
  }

  /** A page of the playlist's songs alone. */
  async tracks(auth: AuthContext | undefined, id: string, page: PlaylistPage) {
    return this.pageAt(auth, await this.readable(auth, id), page);
  }

  /** The page a cursor names; one from before the playlist changed is a 409 (read it again). */
  private async pageAt(auth: AuthContext | undefined, p: PlaylistRecord, page: PlaylistPage) {
    const cursor = page.cursor === undefined ? undefined : decodeOffsetCursor(page.cursor);
    if (cursor && cursor.version.getTime() !== p.updatedAt.getTime()) throw playlistChangedSincePage();
    return this.page(auth, p, page.limit, cursor?.offset ?? 0);
  }

  async create(auth: AuthContext, body: { name: string; public?: boolean; track_ids?: string[] }) {
    const id = await this.createOwn(auth, {
      name: body.name,
      trackIds: body.track_ids ?? [],
      ...(body.public !== undefined ? { public: body.public } : {}),
    });
    return this.view(auth, id);
  }

  async update(auth: AuthContext, id: string, body: PlaylistPatch) {
    const entries = entryEdit(body);
    const changes: PlaylistChanges = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.public !== undefined ? { public: body.public } : {}),
      ...(entries ? { entries } : {}),
    };
    return this.view(auth, await this.changeOwn(auth, id, changes));
  }
}
