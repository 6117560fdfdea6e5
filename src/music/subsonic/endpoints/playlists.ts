/** Playlists: list, read, create (or replace), update and delete; only the owner changes one. */
import type { SongRow } from '../../repositories/subsonic/library-model.js';
import type { PlaylistRecord } from '../../repositories/subsonic/state-repository.js';
import { PLAYLIST_LIMITS } from '../../services/playlist-limits.js';
import type { Payload } from '../response.js';
import { songView } from '../views.js';
import { authContext, checkedSongIds, optional, viewerOf, type Call, type EndpointDeps } from './call.js';

/** What a playlist element shows of its songs: those the caller may play. */
interface SongSummary {
  trackCount: number;
  durationMs: number;
  coverSongId: string | null;
}

function summaryOf(songs: SongRow[]): SongSummary {
  return {
    trackCount: songs.length,
    durationMs: songs.reduce((sum, s) => sum + (s.duration_ms ?? 0), 0),
    coverSongId: songs.find((s) => s.artwork_key)?.id ?? null,
  };
}

function playlistView(p: PlaylistRecord, songs: SongSummary | undefined) {
  return {
    id: p.id,
    name: p.name,
    comment: p.comment || undefined,
    owner: p.ownerHandle,
    public: p.public,
    songCount: songs?.trackCount ?? 0,
    duration: Math.round((songs?.durationMs ?? 0) / 1000),
    created: p.createdAt,
    changed: p.updatedAt,
    coverArt: songs?.coverSongId ?? undefined,
  };
}

export function playlistEndpoints(d: EndpointDeps) {
  // The rules (who reads, who changes, bounds) are the web player's: services/playlist-service.ts.
  const readable = (c: Call, id: string): Promise<PlaylistRecord> =>
    d.playlists.readable(authContext(c.user), id);
  const own = (c: Call, id: string): Promise<PlaylistRecord> => d.playlists.owned(authContext(c.user), id);

  /**
   * A playlist with the songs of it the caller can see, in playlist order (others are left out):
   * whole, as the spec has no paging, in one statement bounded by the playlist's size limit.
   */
  const withEntries = async (c: Call, p: PlaylistRecord): Promise<Payload> => {
    const songs = await d.playlists.songsOf(authContext(c.user), p, PLAYLIST_LIMITS.tracks);
    return { playlist: { ...playlistView(p, summaryOf(songs)), entry: songs.map(songView) } };
  };

  return {
    // The caller's own playlists first, never cut off; songs counted in SQL, not loaded.
    getPlaylists: async (c: Call): Promise<Payload> => {
      const lists = await d.state.listPlaylists(
        c.user.userId,
        PLAYLIST_LIMITS.perOwner,
        PLAYLIST_LIMITS.othersListed,
      );
      const summaries = await d.state.playlistSongSummaries(
        viewerOf(c),
        lists.map((p) => p.id),
      );
      const byId = new Map(summaries.map((s) => [s.playlistId, s]));
      return { playlists: { playlist: lists.map((p) => playlistView(p, byId.get(p.id))) } };
    },

    getPlaylist: async (c: Call): Promise<Payload> =>
      withEntries(c, await readable(c, c.params.required('id'))),

    createPlaylist: async (c: Call): Promise<Payload> => {
      const songIds = await checkedSongIds(d, c, c.params.all('songId'));
      const existing = c.params.get('playlistId');
      let id: string;
      const auth = authContext(c.user);
      if (existing !== undefined) {
        id = await d.playlists.changeOwn(auth, existing, {
          entries: { kind: 'order', trackIds: songIds },
          ...optional('name', c.params.get('name')),
        });
      } else {
        id = await d.playlists.createOwn(auth, { name: c.params.required('name'), trackIds: songIds });
      }
      return withEntries(c, await readable(c, id));
    },

    updatePlaylist: async (c: Call): Promise<Payload> => {
      const auth = authContext(c.user);
      const p = await own(c, c.params.required('playlistId'));
      // Indexes count the songs the client was shown; the others keep their places (changeOwn).
      const shown = c.params.has('songIndexToRemove')
        ? ((await d.playlists.summary(auth, p))?.trackCount ?? 0)
        : 0;
      const remove = c.params.ints('songIndexToRemove', 0, shown - 1).map((n) => ({ position: n }));
      const add = await checkedSongIds(d, c, c.params.all('songIdToAdd'));
      await d.playlists.changeOwn(auth, p.id, {
        ...(remove.length > 0 || add.length > 0
          ? { entries: { kind: 'splice' as const, remove, append: add } }
          : {}),
        ...optional('name', c.params.get('name')),
        ...optional('comment', c.params.get('comment')),
        ...optional('public', c.params.has('public') ? c.params.bool('public', false) : undefined),
      });
      return {};
    },

    deletePlaylist: async (c: Call): Promise<Payload> => {
      await d.playlists.deleteOwn(authContext(c.user), c.params.required('id'));
      return {};
    },
  };
}
