/** Bookmarks (a position in a song) and the saved play queue, by current id or by index. */
import { badParameter, notFound } from '../errors.js';
import { type Payload } from '../response.js';
import { songView } from '../views.js';
import { PLAY_QUEUE_LIMITS } from '../../services/play-queue-limits.js';
import { visibleQueue } from '../../services/play-queue-service.js';
import { checkedSongIds, songId, viewerOf, visibleSong, type Call, type EndpointDeps } from './call.js';

export function bookmarkEndpoints(d: EndpointDeps) {
  const getPlayQueue = async (c: Call, byIndex: boolean): Promise<Payload> => {
    const q = await d.state.playQueue(c.user.userId);
    if (!q) return {};
    const byId = new Map(
      (await d.library.songsByIds(viewerOf(c), [...new Set(q.trackIds)])).map((s) => [s.id, s]),
    );
    // The current entry counted among the songs shown (a hidden one is no current entry).
    const { songs, at } = visibleQueue(q, byId);
    const common = {
      position: at < 0 ? 0 : Number(q.positionMs),
      username: c.user.handle,
      changed: q.updatedAt,
      changedBy: q.changedBy,
      entry: songs.map(songView),
    };
    if (byIndex) return { playQueueByIndex: { currentIndex: at < 0 ? undefined : at, ...common } };
    return { playQueue: { current: at < 0 ? undefined : songs[at]!.id, ...common } };
  };

  const savePlayQueue = async (c: Call, byIndex: boolean): Promise<Payload> => {
    const given = c.params.all('id');
    // The bound REST's PUT /api/v1/me/play-queue keeps too (the same row).
    if (given.length > PLAY_QUEUE_LIMITS.tracks)
      throw badParameter('id', `a play queue holds at most ${PLAY_QUEUE_LIMITS.tracks} songs`);
    const ids = await checkedSongIds(d, c, given);
    if (ids.length === 0) {
      await d.state.clearPlayQueue(c.user.userId);
      return {};
    }
    let currentIndex: number | null = null;
    if (byIndex) {
      currentIndex = c.params.optionalInt('currentIndex', 0, ids.length - 1) ?? null;
    } else {
      const current = c.params.get('current');
      if (current !== undefined) {
        currentIndex = ids.indexOf(songId(current));
        if (currentIndex < 0) throw badParameter('current', 'must be one of the queued ids');
      }
    }
    await d.state.savePlayQueue(c.user.userId, {
      trackIds: ids,
      currentIndex,
      positionMs: c.params.int('position', 0, 0, PLAY_QUEUE_LIMITS.positionMs),
      changedBy: c.params.text('c', PLAY_QUEUE_LIMITS.clientLength),
    });
    return {};
  };

  return {
    getBookmarks: async (c: Call): Promise<Payload> => {
      const rows = await d.state.bookmarks(c.user.userId);
      const songs = new Map(
        (
          await d.library.songsByIds(
            viewerOf(c),
            rows.map((r) => r.trackId),
          )
        ).map((s) => [s.id, s]),
      );
      return {
        bookmarks: {
          bookmark: rows.flatMap((b) => {
            const song = songs.get(b.trackId);
            return song
              ? [
                  {
                    position: Number(b.positionMs),
                    username: c.user.handle,
                    comment: b.comment || undefined,
                    created: b.createdAt,
                    changed: b.updatedAt,
                    entry: songView(song),
                  },
                ]
              : [];
          }),
        },
      };
    },

    createBookmark: async (c: Call): Promise<Payload> => {
      const song = await visibleSong(d, c, c.params.required('id'));
      const position = c.params.int('position', 0, 0, 1e12);
      if (!c.params.has('position')) throw badParameter('position', 'is required (milliseconds)');
      await d.state.saveBookmark(c.user.userId, song.id, position, c.params.text('comment', 2000));
      return {};
    },

    deleteBookmark: async (c: Call): Promise<Payload> => {
      if (!(await d.state.deleteBookmark(c.user.userId, songId(c.params.required('id')))))
        throw notFound('Bookmark');
      return {};
    },

    getPlayQueue: (c: Call) => getPlayQueue(c, false),
    getPlayQueueByIndex: (c: Call) => getPlayQueue(c, true),
    savePlayQueue: (c: Call) => savePlayQueue(c, false),
    savePlayQueueByIndex: (c: Call) => savePlayQueue(c, true),
  };
}
