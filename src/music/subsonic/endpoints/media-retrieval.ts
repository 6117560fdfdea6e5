/** Media retrieval: stream (with a bitrate cap or a time offset), download, HLS, cover art, lyrics, avatars. */
import { notFound } from '../errors.js';
import { type Payload } from '../response.js';
import { ALBUM_ID, ARTIST_ID, songId, viewerOf, visibleSong, type Call, type EndpointDeps } from './call.js';
import type { BinaryAnswer } from '../song-streams.js';

export function mediaRetrievalEndpoints(d: EndpointDeps) {
  const lib = d.library;
  return {
    stream: async (c: Call): Promise<BinaryAnswer> => {
      const song = await visibleSong(d, c, c.params.required('id'));
      return d.media.stream(
        song,
        {
          userId: c.user.userId,
          maxBitRateKbps: c.params.int('maxBitRate', 0, 0, 100_000),
          raw: c.params.get('format') === 'raw',
          timeOffsetSeconds: c.params.int('timeOffset', 0, 0, 86_400),
          estimateContentLength: c.params.get('estimateContentLength') === 'true',
        },
        c.range,
        c.signal,
      );
    },

    download: async (c: Call) => d.media.original(await visibleSong(d, c, c.params.required('id')), c.range),

    'hls.m3u8': async (c: Call) => d.media.hls(await visibleSong(d, c, c.params.required('id'))),

    getCoverArt: async (c: Call): Promise<BinaryAnswer> => {
      const id = c.params.required('id');
      const size = c.params.optionalInt('size', 1, 10_000);
      const v = viewerOf(c);
      let coverSong: string | null | undefined;
      if (ALBUM_ID.test(id)) coverSong = (await lib.album(v, id))?.cover_song;
      else if (ARTIST_ID.test(id)) coverSong = (await lib.artist(v, id))?.cover_song;
      else coverSong = songId(id);
      const song = coverSong ? await lib.song(v, coverSong) : undefined;
      if (!song?.artwork_key) throw notFound('Cover art');
      return d.media.cover(song.artwork_key, size);
    },

    getLyricsBySongId: async (c: Call): Promise<Payload> => {
      await visibleSong(d, c, c.params.required('id'));
      // The platform keeps no lyrics: the spec's empty list.
      return { lyricsList: { structuredLyrics: [] } };
    },

    getAvatar: (c: Call): Payload => {
      c.params.required('username');
      throw notFound('Avatar');
    },
  };
}
