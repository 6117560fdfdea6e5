/**
 * The SQL the Subsonic library is read with: the columns of a song, an album (summed over its
 * visible parts) and their orders, and getAlbumList's orders as album queries.
 */
import { Prisma } from '../../../../generated/prisma/client.js';
import type { AlbumListQuery } from './library-model.js';

export const SONG_VISIBILITY = {
  owner: Prisma.raw('s.owner_user_id'),
  visibility: Prisma.raw('s.visibility'),
};

/** A timestamp as the ISO 8601 text JavaScript's toISOString writes (UTC, milliseconds). */
export const iso = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const SONG_COLUMNS = Prisma.sql`s.id::text AS id, s.owner_user_id::text AS owner_user_id,
  (SELECT u.handle FROM users u WHERE u.id = s.owner_user_id) AS owner_handle,
  (SELECT u.display_name FROM users u WHERE u.id = s.owner_user_id) AS owner_name, s.visibility::text AS visibility,
  ${Prisma.raw(iso('s.created_at'))} AS created_at, s.title, s.artist, s.album_artist, s.album, s.artist_id, s.album_id, s.genre, s.year,
  s.track_number, s.disc_number, s.mb_recording_id::text AS mb_recording_id, s.version_id::text AS version_id,
  s.duration_ms, s.bit_rate, s.sample_rate, s.channels, s.codec, s.replay_gain, s.true_peak, s.artwork_key,
  s.progressive_key, s.hls_key, s.object_key, s.size::float8 AS size, s.filename, s.content_type,
  ${Prisma.raw(iso('st.starred_at'))} AS starred_at, r.rating::int AS rating`;

/** An album's columns, summed over its visible parts `p` (stars `st`, ratings `r` joined). */
export const ALBUM_COLUMNS =
  Prisma.raw(`p.album_id AS id, min(p.name) AS name, min(p.artist) AS artist, min(p.artist_id) AS artist_id,
  sum(p.song_count)::int AS song_count, sum(p.duration_ms)::int AS duration_ms, ${iso('max(p.created)')} AS created,
  min(p.year) AS year, min(p.genre) AS genre,
  (array_agg(p.cover_song::text ORDER BY p.public DESC, p.created) FILTER (WHERE p.cover_song IS NOT NULL))[1] AS cover_song,
  ${iso('max(st.starred_at)')} AS starred_at, max(r.rating)::int AS rating`);
export const ALBUM_KEYS = [
  'id',
  'name',
  'artist',
  'artist_id',
  'song_count',
  'duration_ms',
  'created',
  'year',
  'genre',
  'cover_song',
  'starred_at',
  'rating',
] as const;

/** An album's songs in disc and track order (then title, id). */
export const ALBUM_SONG_ORDER = Prisma.sql`s.disc_number NULLS FIRST, s.track_number NULLS LAST, lower(s.title), s.id`;
/** The same order over the output columns of albumWithSongs. */
export const SONG_ORDER_KEYS =
  'song.disc_number NULLS FIRST, song.track_number NULLS LAST, lower(song.title), song.id::uuid';

/** One album query: filter on parts, filter on the groups, order of the groups. */
export interface AlbumSelect {
  where?: Prisma.Sql;
  having?: Prisma.Sql;
  order: Prisma.Sql;
}

/** getAlbumList(2)'s `type` as an album query; `songsVisible` filters the view's rows `s`. */
export function albumOrder(q: AlbumListQuery, songsVisible: Prisma.Sql): AlbumSelect {
  const albumPlays = (agg: Prisma.Sql) =>
    Prisma.sql`(SELECT ${agg} FROM subsonic_songs s WHERE s.album_id = p.album_id AND ${songsVisible})`;
  switch (q.type) {
    case 'random':
      return { order: Prisma.sql`random()` };
    case 'newest':
      return { order: Prisma.sql`max(p.created) DESC` };
    case 'alphabeticalByName':
      return { order: Prisma.sql`lower(min(p.name))` };
    case 'alphabeticalByArtist':
      return { order: Prisma.sql`lower(min(p.artist)), lower(min(p.name))` };
    case 'starred':
      return {
        having: Prisma.sql`HAVING max(st.starred_at) IS NOT NULL`,
        order: Prisma.sql`max(st.starred_at) DESC`,
      };
    case 'highest':
      return { having: Prisma.sql`HAVING max(r.rating) IS NOT NULL`, order: Prisma.sql`max(r.rating) DESC` };
    case 'byGenre':
      return { where: Prisma.sql`p.genre = ${q.genre ?? ''}`, order: Prisma.sql`lower(min(p.name))` };
    case 'byYear': {
      const from = q.fromYear ?? 0;
      const to = q.toYear ?? 9999;
      const [lo, hi] = from <= to ? [from, to] : [to, from];
      // A descending range (fromYear > toYear) lists newest first, as the spec asks.
      return {
        where: Prisma.sql`p.year BETWEEN ${lo} AND ${hi}`,
        order: from <= to ? Prisma.sql`min(p.year)` : Prisma.sql`min(p.year) DESC`,
      };
    }
    case 'frequent': {
      // Only albums with plays are looked at: the candidates come from the play counts.
      const plays = albumPlays(
        Prisma.sql`sum(coalesce((SELECT sum(d.plays) FROM track_daily_stats d WHERE d.track_id = s.id), 0))`,
      );
      return {
        where: Prisma.sql`p.album_id IN (SELECT s.album_id FROM track_daily_stats d JOIN subsonic_songs s ON s.id = d.track_id)`,
        having: Prisma.sql`HAVING ${plays} > 0`,
        order: Prisma.sql`${plays} DESC`,
      };
    }
    case 'recent':
      return {
        where: Prisma.sql`p.album_id IN (SELECT s.album_id FROM play_events e JOIN subsonic_songs s ON s.id = e.track_id)`,
        order: Prisma.sql`${albumPlays(Prisma.sql`max((SELECT max(e.occurred_at) FROM play_events e WHERE e.track_id = s.id))`)} DESC NULLS LAST`,
      };
  }
}
