/** Annotation: star and unstar songs, albums and artists, ratings, and scrobbles (plays and now playing). */
import { badParameter, notFound } from '../errors.js';
import { type Payload } from '../response.js';
import { ALBUM_ID, ARTIST_ID, authContext, songId, viewerOf, type Call, type EndpointDeps } from './call.js';
import type { StarredKind } from '../../repositories/subsonic/annotation-repository.js';

export function annotationEndpoints(d: EndpointDeps) {
  const lib = d.library;

  const star = async (c: Call, on: boolean): Promise<Payload> => {
    const v = viewerOf(c);
    const items: { id: string; kind: StarredKind }[] = [];
    for (const id of [...c.params.all('id'), ...c.params.all('albumId'), ...c.params.all('artistId')]) {
      if (ALBUM_ID.test(id)) items.push({ id, kind: 'album' });
      else if (ARTIST_ID.test(id)) items.push({ id, kind: 'artist' });
      else items.push({ id: songId(id), kind: 'song' });
    }
    if (items.length === 0)
      throw badParameter('id', 'name at least one song (id), album (albumId) or artist (artistId)');
    if (!on) {
      await d.annotations.unstar(
        c.user.userId,
        items.map((i) => i.id),
      );
      return {};
    }
    // Only what the caller can see may be starred.
    const ofKind = (kind: StarredKind) => items.filter((i) => i.kind === kind).map((i) => i.id);
    const songs = await lib.songsByIds(v, ofKind('song'));
    const albums = await lib.albumsByIds(v, ofKind('album'));
    const artists = await lib.artistsByIds(v, ofKind('artist'));
    const seen = new Set([...songs, ...albums, ...artists].map((x) => x.id));
    const missing = items.find((i) => !seen.has(i.id));
    if (missing)
      throw notFound(missing.kind === 'song' ? 'Song' : missing.kind === 'album' ? 'Album' : 'Artist');
    await d.annotations.star(c.user.userId, items);
    return {};
  };

  return {
    star: (c: Call) => star(c, true),
    unstar: (c: Call) => star(c, false),

    setRating: async (c: Call): Promise<Payload> => {
      const id = c.params.required('id');
      const rating = c.params.int('rating', -1, 0, 5);
      if (rating < 0) throw badParameter('rating', 'is required: 0 (remove) to 5');
      const v = viewerOf(c);
      const found = ALBUM_ID.test(id)
        ? await lib.album(v, id)
        : ARTIST_ID.test(id)
          ? await lib.artist(v, id)
          : await lib.song(v, songId(id));
      if (!found) throw notFound('Item');
      await d.annotations.setRating(c.user.userId, found.id, rating);
      return {};
    },

    /** submission=false: now playing; true (default): a play through the platform's analytics and its dedup rule. */
    scrobble: async (c: Call): Promise<Payload> => {
      const ids = c.params.all('id');
      if (ids.length === 0) throw badParameter('id', 'is required');
      const submission = c.params.bool('submission', true);
      const songs = await lib.songsByIds(viewerOf(c), ids.map(songId));
      if (songs.length !== new Set(ids.map((i) => i.toLowerCase())).size) throw notFound('Song');
      for (const id of ids.map((i) => i.toLowerCase())) {
        if (submission) await d.analytics.recordPlay(authContext(c.user), c.address, { track_id: id });
        else
          await d.state.setNowPlaying(c.user.userId, {
            trackId: id,
            handle: c.user.handle,
            client: c.params.text('c', 100),
            atMs: d.nowMs(),
          });
      }
      return {};
    },
  };
}
