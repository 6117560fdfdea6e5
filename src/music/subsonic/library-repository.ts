/**
 * The Subsonic library in PostgreSQL: songs are rows of the `subsonic_songs` view (each
 * track's current ready version); albums and artists are groups of them by the generated
 * ids of migration 20261125041000. Every query is for one caller: public songs plus the
 * caller's own (music folder 1, "Everyone"), or the caller's own only (folder 2, "Mine").
 * Search reads subsonic_song_search (one row a song, kept by triggers) through its GIN or title
 * index, never a scan. Reads go through pg as prepared statements (sql.ts); writes through Prisma.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { PrismaClient } from '../repositories/prisma.js';
import type { SqlReader } from './sql.js';
import { trackColumns, visibleSql, type Access } from '../repositories/visibility-sql.js';
import type { Role } from '../auth-context.js';

export const FOLDER_EVERYONE = 1;
export const FOLDER_MINE = 2;

export interface Viewer {
  userId: string;
  role?: Role;
  /** undefined: every folder the caller can see (= "Everyone"). */
  folder?: number;
}

const SONG_VISIBILITY = { owner: Prisma.raw('s.owner_user_id'), visibility: Prisma.raw('s.visibility') };

export interface SongRow {
  id: string;
  owner_user_id: string;
  visibility: string;
  /** ISO 8601 text, as the answers write it (made by PostgreSQL: no Date per row). */
  created_at: string;
  title: string;
  artist: string;
  album_artist: string;
  album: string;
  artist_id: string;
  album_id: string;
  genre: string | null;
  year: number | null;
  track_number: number | null;
  disc_number: number | null;
  mb_recording_id: string | null;
  version_id: string;
  duration_ms: number | null;
  bit_rate: number | null;
  sample_rate: number | null;
  channels: number | null;
  codec: string | null;
  replay_gain: number | null;
  true_peak: number | null;
  artwork_key: string | null;
  progressive_key: string | null;
  hls_key: string | null;
  object_key: string;
  size: number;
  filename: string;
  content_type: string;
  starred_at: string | null;
  rating: number | null;
}

export interface AlbumRow {
  id: string;
  name: string;
  artist: string;
  artist_id: string;
  song_count: number;
  duration_ms: number;
  created: string;
  year: number | null;
  genre: string | null;
  cover_song: string | null;
  starred_at: string | null;
  rating: number | null;
}

export interface ArtistRow {
  id: string;
  name: string;
  album_count: number;
  cover_song: string | null;
  starred_at: string | null;
}

export type AlbumOrder =
  | 'random'
  | 'newest'
  | 'highest'
  | 'frequent'
  | 'recent'
  | 'alphabeticalByName'
  | 'alphabeticalByArtist'
  | 'starred'
  | 'byYear'
  | 'byGenre';

export interface AlbumListQuery {
  type: AlbumOrder;
  size: number;
  offset: number;
  fromYear?: number;
  toYear?: number;
  genre?: string;
}

/** subsonic_artists' viewer for the public summary rows; also a viewer who owns nothing. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** A timestamp as the ISO 8601 text JavaScript's toISOString writes (UTC, milliseconds). */
const iso = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SONG_COLUMNS = Prisma.sql`s.id::text AS id, s.owner_user_id::text AS owner_user_id, s.visibility::text AS visibility,
  ${Prisma.raw(iso('s.created_at'))} AS created_at, s.title, s.artist, s.album_artist, s.album, s.artist_id, s.album_id, s.genre, s.year,
  s.track_number, s.disc_number, s.mb_recording_id::text AS mb_recording_id, s.version_id::text AS version_id,
  s.duration_ms, s.bit_rate, s.sample_rate, s.channels, s.codec, s.replay_gain, s.true_peak, s.artwork_key,
  s.progressive_key, s.hls_key, s.object_key, s.size::float8 AS size, s.filename, s.content_type,
  ${Prisma.raw(iso('st.starred_at'))} AS starred_at, r.rating::int AS rating`;

/** An album's columns, summed over its visible parts `p` (stars `st`, ratings `r` joined). */
const ALBUM_COLUMNS =
  Prisma.raw(`p.album_id AS id, min(p.name) AS name, min(p.artist) AS artist, min(p.artist_id) AS artist_id,
  sum(p.song_count)::int AS song_count, sum(p.duration_ms)::int AS duration_ms, ${iso('max(p.created)')} AS created,
  min(p.year) AS year, min(p.genre) AS genre,
  (array_agg(p.cover_song::text ORDER BY p.public DESC, p.created) FILTER (WHERE p.cover_song IS NOT NULL))[1] AS cover_song,
  ${iso('max(st.starred_at)')} AS starred_at, max(r.rating)::int AS rating`);
const ALBUM_KEYS = [
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
const ALBUM_SONG_ORDER = Prisma.sql`s.disc_number NULLS FIRST, s.track_number NULLS LAST, lower(s.title), s.id`;
/** The same order over the output columns of albumWithSongs. */
const SONG_ORDER_KEYS =
  'song.disc_number NULLS FIRST, song.track_number NULLS LAST, lower(song.title), song.id::uuid';

/** Tokens of a search as a prefix tsquery ("nois so" -> nois:* & so:*); undefined when empty. */
export function prefixQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length === 0
    ? undefined
    : words
        .slice(0, 16)
        .map((w) => `${w}:*`)
        .join(' & ');
}

/** One album query: filter on parts, filter on the groups, order of the groups. */
interface AlbumSelect {
  where?: Prisma.Sql;
  having?: Prisma.Sql;
  order: Prisma.Sql;
}

/** getAlbumList(2)'s `type` as an album query; `songsVisible` filters the view's rows `s`. */
function albumOrder(q: AlbumListQuery, songsVisible: Prisma.Sql): AlbumSelect {
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

export class SubsonicLibraryRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlReader,
  ) {}

  /** The visibility policy (services/visibility-policy.ts): `list` for browsing, `read` for one song by id. */
  private visible(v: Viewer, access: Access = 'list'): Prisma.Sql {
    if (v.folder === FOLDER_MINE) return Prisma.sql`s.owner_user_id = ${v.userId}::uuid`;
    return visibleSql(access, { userId: v.userId, role: v.role ?? 'user' }, SONG_VISIBILITY);
  }

  private songJoins(v: Viewer): Prisma.Sql {
    return Prisma.sql`LEFT JOIN subsonic_stars st ON st.user_id = ${v.userId}::uuid AND st.item_id = s.id::text
      LEFT JOIN subsonic_ratings r ON r.user_id = ${v.userId}::uuid AND r.item_id = s.id::text`;
  }

  async songs(
    v: Viewer,
    where: Prisma.Sql,
    order: Prisma.Sql,
    limit: number,
    offset: number,
    access: Access = 'list',
  ): Promise<SongRow[]> {
    return this.sql.rows<SongRow>(Prisma.sql`SELECT ${SONG_COLUMNS} FROM subsonic_songs s ${this.songJoins(v)}
      WHERE ${this.visible(v, access)} AND ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`);
  }

  /** One song by its id: read access (an unlisted song by its id, as on REST). */
  async song(v: Viewer, id: string): Promise<SongRow | undefined> {
    return (await this.songs(v, Prisma.sql`s.id = ${id}::uuid`, Prisma.sql`s.id`, 1, 0, 'read'))[0];
  }

  songsByIds(v: Viewer, ids: string[]): Promise<SongRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    // Songs named by id (scrobble, playlists, play queues): read access, as getSong.
    return this.songs(v, Prisma.sql`s.id = ANY(${ids}::uuid[])`, Prisma.sql`s.id`, ids.length, 0, 'read');
  }

  /** Album parts the caller sees (migration 20261125070000): public ones and their own. */
  private visibleParts(v: Viewer): Prisma.Sql {
    const me = Prisma.sql`${v.userId}::uuid`;
    return v.folder === FOLDER_MINE
      ? Prisma.sql`p.owner_user_id = ${me}`
      : Prisma.sql`(p.public OR p.owner_user_id = ${me})`;
  }

  /** Albums as the sums of their visible parts (usually one part an album). */
  private albumSelect(v: Viewer, q: AlbumSelect, limit: number, offset: number) {
    return this.sql.rows<AlbumRow>(this.albumSql(v, q, limit, offset));
  }

  private albumSql(v: Viewer, q: AlbumSelect, limit: number, offset: number): Prisma.Sql {
    return Prisma.sql`SELECT ${ALBUM_COLUMNS} ${this.albumFrom(v)}
      WHERE ${this.visibleParts(v)} AND ${q.where ?? Prisma.sql`true`}
      GROUP BY p.album_id ${q.having ?? Prisma.empty} ORDER BY ${q.order}, p.album_id LIMIT ${limit} OFFSET ${offset}`;
  }

  private albumFrom(v: Viewer): Prisma.Sql {
    return Prisma.sql`FROM subsonic_album_parts p
      LEFT JOIN subsonic_stars st ON st.user_id = ${v.userId}::uuid AND st.item_id = p.album_id
      LEFT JOIN subsonic_ratings r ON r.user_id = ${v.userId}::uuid AND r.item_id = p.album_id`;
  }

  async album(v: Viewer, id: string): Promise<AlbumRow | undefined> {
    return (
      await this.albumSelect(v, { where: Prisma.sql`p.album_id = ${id}`, order: Prisma.sql`1` }, 1, 0)
    )[0];
  }

  /**
   * An album and its songs in one statement (one round trip): the album's row joined to each of
   * its visible songs; undefined when the caller sees no part of it.
   */
  async albumWithSongs(v: Viewer, id: string): Promise<{ album: AlbumRow; songs: SongRow[] } | undefined> {
    const rows = await this.sql.rows<SongRow & Record<`album_${(typeof ALBUM_KEYS)[number]}`, unknown>>(
      Prisma.sql`WITH a AS (SELECT ${ALBUM_COLUMNS} ${this.albumFrom(v)}
        WHERE ${this.visibleParts(v)} AND p.album_id = ${id} GROUP BY p.album_id)
      SELECT ${Prisma.raw(ALBUM_KEYS.map((k) => `a.${k} AS album_${k}`).join(', '))}, song.*
      FROM a LEFT JOIN LATERAL (SELECT ${SONG_COLUMNS} FROM subsonic_songs s ${this.songJoins(v)}
        WHERE ${this.visible(v)} AND s.album_id = a.id ORDER BY ${ALBUM_SONG_ORDER}) song ON true
      ORDER BY ${Prisma.raw(SONG_ORDER_KEYS)}`,
    );
    const first = rows[0];
    if (!first) return undefined;
    const album = Object.fromEntries(ALBUM_KEYS.map((k) => [k, first[`album_${k}`]])) as unknown as AlbumRow;
    return { album, songs: first.id === null ? [] : rows };
  }

  albumsOfArtist(v: Viewer, artistId: string): Promise<AlbumRow[]> {
    return this.albumSelect(
      v,
      {
        where: Prisma.sql`p.artist_id = ${artistId}`,
        order: Prisma.sql`min(p.year) NULLS LAST, lower(min(p.name))`,
      },
      10_000,
      0,
    );
  }

  albumsByIds(v: Viewer, ids: string[]): Promise<AlbumRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.albumSelect(
      v,
      { where: Prisma.sql`p.album_id = ANY(${ids}::text[])`, order: Prisma.sql`lower(min(p.name))` },
      ids.length,
      0,
    );
  }

  albumList(v: Viewer, q: AlbumListQuery): Promise<AlbumRow[]> {
    if (q.type === 'newest') return this.newestAlbums(v, q.size, q.offset);
    return this.albumSelect(v, albumOrder(q, this.visible(v)), q.size, q.offset);
  }

  /**
   * Newest first without grouping every album: an album's first part in (created DESC, id)
   * order is its newest, so the first distinct albums of that index order are the page. Only the
   * first `candidates` parts are read; when they hold too few albums (many parts an album), again
   * with more.
   */
  private async newestAlbums(v: Viewer, size: number, offset: number): Promise<AlbumRow[]> {
    for (let limit = (offset + size) * 2 + 16; ; limit *= 4) {
      const rows = await this.sql.rows<
        { candidates: number; newest: unknown } & { [K in keyof AlbumRow]: AlbumRow[K] | null }
      >(Prisma.sql`
        WITH c AS (SELECT p.album_id, p.created FROM subsonic_album_parts p WHERE ${this.visibleParts(v)}
          ORDER BY p.created DESC, p.album_id LIMIT ${limit}),
        page AS (SELECT album_id FROM c GROUP BY album_id ORDER BY max(created) DESC, album_id
          LIMIT ${size} OFFSET ${offset}),
        a AS (SELECT ${ALBUM_COLUMNS}, max(p.created) AS newest ${this.albumFrom(v)}
          WHERE ${this.visibleParts(v)} AND p.album_id IN (SELECT album_id FROM page) GROUP BY p.album_id)
        SELECT n.candidates, a.* FROM (SELECT count(*)::int AS candidates FROM c) n LEFT JOIN a ON true
        ORDER BY a.newest DESC, a.id`);
      const albums = rows.flatMap(({ candidates: _, newest: __, ...a }) =>
        a.id === null ? [] : [a as AlbumRow],
      );
      // Final when the page is full, or when the candidates were every visible part.
      if (albums.length === size || (rows[0]?.candidates ?? 0) < limit) return albums;
    }
  }

  /**
   * Artists from subsonic_artists (migration 20261126020000), one row an artist: folder "Mine"
   * reads the caller's own rows; "Everyone" the public row joined to the caller's own, whose
   * albums without a public part add to the public count.
   */
  private artistSelect(v: Viewer, where: Prisma.Sql, limit: number, offset: number) {
    return this.sql.rows<ArtistRow>(this.artistSql(v, where, limit, offset));
  }

  /** `where` is over one subsonic_artists row `a` (its name, search vector or artist_id). */
  private artistSql(v: Viewer, where: Prisma.Sql, limit: number, offset: number): Prisma.Sql {
    const me = Prisma.sql`${v.userId}::uuid`;
    // The filter goes inside each side so that it reaches the indexes (GIN, primary key).
    const rows = (viewer: Prisma.Sql) =>
      Prisma.sql`(SELECT * FROM subsonic_artists a WHERE a.viewer = ${viewer} AND ${where})`;
    const from =
      v.folder === FOLDER_MINE
        ? Prisma.sql`(SELECT a.artist_id AS id, a.name, a.album_count, a.cover_song FROM ${rows(me)} a) a`
        : Prisma.sql`(SELECT coalesce(p.artist_id, o.artist_id) AS id, least(p.name, o.name) AS name,
              coalesce(p.album_count, 0) + coalesce(o.extra_count, 0) AS album_count,
              coalesce(p.cover_song, o.cover_song) AS cover_song
            FROM ${rows(Prisma.sql`${NIL_UUID}::uuid`)} p FULL JOIN ${rows(me)} o ON o.artist_id = p.artist_id
            WHERE p.artist_id IS NOT NULL OR o.extra_count > 0) a`;
    return Prisma.sql`
      SELECT a.id, a.name, a.album_count, a.cover_song::text AS cover_song, ${Prisma.raw(iso('st.starred_at'))} AS starred_at
      FROM ${from}
      LEFT JOIN subsonic_stars st ON st.user_id = ${me} AND st.item_id = a.id
      ORDER BY lower(a.name), a.id LIMIT ${limit} OFFSET ${offset}`;
  }

  artists(v: Viewer): Promise<ArtistRow[]> {
    return this.artistSelect(v, Prisma.sql`true`, 100_000, 0);
  }

  async artist(v: Viewer, id: string): Promise<ArtistRow | undefined> {
    return (await this.artistSelect(v, Prisma.sql`a.artist_id = ${id}`, 1, 0))[0];
  }

  artistsByIds(v: Viewer, ids: string[]): Promise<ArtistRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.artistSelect(v, Prisma.sql`a.artist_id = ANY(${ids}::text[])`, ids.length, 0);
  }

  /**
   * One page of the songs matching a search (or of every song, `tsquery` undefined), by title,
   * in one prepared statement: subsonic_search_songs chooses the page on subsonic_song_search
   * (planned with the words each call), and only its rows are read from the view.
   */
  private songPage(
    v: Viewer,
    tsquery: string | undefined,
    limit: number,
    offset: number,
  ): Promise<SongRow[]> {
    return this.sql.rows<SongRow>(Prisma.sql`SELECT ${SONG_COLUMNS}
      FROM subsonic_search_songs(to_tsquery('simple', ${tsquery ?? null}::text), ${v.userId}::uuid,
        ${v.folder === FOLDER_MINE}, ${limit}::int, ${offset}::int) WITH ORDINALITY AS page(id, n)
      JOIN subsonic_songs s ON s.id = page.id ${this.songJoins(v)}
      ORDER BY page.n`);
  }

  /** search3: an empty query lists everything, paged. */
  async search(
    v: Viewer,
    text: string,
    page: {
      songCount: number;
      songOffset: number;
      albumCount: number;
      albumOffset: number;
      artistCount: number;
      artistOffset: number;
    },
  ): Promise<{ songs: SongRow[]; albums: AlbumRow[]; artists: ArtistRow[] }> {
    const q = prefixQuery(text);
    // Albums match by their name and artist, artists by name (as Navidrome does), through GIN indexes.
    const tsq = (column: Prisma.Sql) =>
      q === undefined ? Prisma.sql`true` : Prisma.sql`${column} @@ to_tsquery('simple', ${q})`;
    const albums =
      page.albumCount > 0
        ? this.albumSql(
            v,
            { where: tsq(Prisma.sql`p.search`), order: Prisma.sql`lower(min(p.name))` },
            page.albumCount,
            page.albumOffset,
          )
        : undefined;
    const artists =
      page.artistCount > 0
        ? this.artistSql(v, tsq(Prisma.sql`a.search`), page.artistCount, page.artistOffset)
        : undefined;
    const [songs, found] = await Promise.all([
      page.songCount > 0 ? this.songPage(v, q, page.songCount, page.songOffset) : Promise.resolve([]),
      this.albumsAndArtists(albums, artists),
    ]);
    return { songs, ...found };
  }

  /**
   * search3's albums and artists in one statement (one round trip fewer): both pages as one
   * UNION ALL of same-shaped rows, told apart by `kind`; each page keeps its own order, as
   * Append returns its branches one after the other.
   */
  private async albumsAndArtists(
    albums: Prisma.Sql | undefined,
    artists: Prisma.Sql | undefined,
  ): Promise<{ albums: AlbumRow[]; artists: ArtistRow[] }> {
    if (!albums && !artists) return { albums: [], artists: [] };
    if (!albums || !artists)
      return {
        albums: albums ? await this.sql.rows<AlbumRow>(albums) : [],
        artists: artists ? await this.sql.rows<ArtistRow>(artists) : [],
      };
    const rows = await this.sql.rows<AlbumRow & { kind: 'album' | 'artist'; album_count: number | null }>(
      Prisma.sql`(SELECT 'album' AS kind, x.*, NULL::int AS album_count FROM (${albums}) x)
      UNION ALL
      (SELECT 'artist', y.id, y.name, NULL::text, NULL::text, NULL::int, NULL::int, NULL::text, NULL::int,
        NULL::text, y.cover_song, y.starred_at, NULL::int, y.album_count FROM (${artists}) y)`,
    );
    const found = { albums: [] as AlbumRow[], artists: [] as ArtistRow[] };
    for (const { kind, album_count, ...r } of rows) {
      if (kind === 'album') found.albums.push(r);
      else
        found.artists.push({
          id: r.id,
          name: r.name,
          album_count: album_count ?? 0,
          cover_song: r.cover_song,
          starred_at: r.starred_at,
        });
    }
    return found;
  }

  /** Songs grouped under an artist (album artist, else artist), by album and disc order. */
  songsOfArtist(v: Viewer, artistId: string, limit: number): Promise<SongRow[]> {
    return this.songs(
      v,
      Prisma.sql`s.artist_id = ${artistId}`,
      Prisma.sql`lower(s.album), ${ALBUM_SONG_ORDER}`,
      limit,
      0,
    );
  }

  /** The newest songs first (the tracks_visibility_created index serves the public ones). */
  newestSongs(v: Viewer, limit: number): Promise<SongRow[]> {
    return this.songs(v, Prisma.sql`true`, Prisma.sql`s.created_at DESC, s.id`, limit, 0);
  }

  randomSongs(
    v: Viewer,
    size: number,
    filter: { genre?: string; fromYear?: number; toYear?: number },
  ): Promise<SongRow[]> {
    const parts = [Prisma.sql`true`];
    if (filter.genre !== undefined) parts.push(Prisma.sql`s.genre = ${filter.genre}`);
    if (filter.fromYear !== undefined) parts.push(Prisma.sql`s.year >= ${filter.fromYear}`);
    if (filter.toYear !== undefined) parts.push(Prisma.sql`s.year <= ${filter.toYear}`);
    return this.songs(v, Prisma.join(parts, ' AND '), Prisma.sql`random()`, size, 0);
  }

  songsByGenre(v: Viewer, genre: string, count: number, offset: number): Promise<SongRow[]> {
    return this.songs(
      v,
      Prisma.sql`s.genre = ${genre}`,
      Prisma.sql`lower(s.album), s.disc_number NULLS FIRST, s.track_number NULLS LAST, s.id`,
      count,
      offset,
    );
  }

  /** Songs of an artist (by name) most played first (daily stats), then by title. */
  topSongs(v: Viewer, artistName: string, count: number): Promise<SongRow[]> {
    return this.songs(
      v,
      Prisma.sql`(lower(s.artist) = lower(${artistName}) OR lower(s.album_artist) = lower(${artistName}))`,
      Prisma.sql`coalesce((SELECT sum(d.plays) FROM track_daily_stats d WHERE d.track_id = s.id), 0) DESC, lower(s.title), s.id`,
      count,
      0,
    );
  }

  genres(v: Viewer): Promise<{ value: string; song_count: number; album_count: number }[]> {
    return this.sql
      .rows(Prisma.sql`SELECT s.genre AS value, count(*)::int AS song_count, count(DISTINCT s.album_id)::int AS album_count
      FROM subsonic_songs s WHERE ${this.visible(v)} AND s.genre IS NOT NULL AND s.genre <> ''
      GROUP BY s.genre ORDER BY lower(s.genre)`);
  }

  starredSongs(v: Viewer): Promise<SongRow[]> {
    return this.songs(
      v,
      Prisma.sql`st.starred_at IS NOT NULL`,
      Prisma.sql`st.starred_at DESC, s.id`,
      10_000,
      0,
    );
  }

  async starredIds(userId: string, kind: 'album' | 'artist'): Promise<string[]> {
    const rows = await this.prisma.subsonicStar.findMany({
      where: { userId, kind },
      orderBy: { starredAt: 'desc' },
    });
    return rows.map((r) => r.itemId);
  }

  async star(userId: string, items: { id: string; kind: 'song' | 'album' | 'artist' }[]): Promise<void> {
    await this.prisma.subsonicStar.createMany({
      data: items.map((i) => ({ userId, itemId: i.id, kind: i.kind })),
      skipDuplicates: true,
    });
  }

  async unstar(userId: string, ids: string[]): Promise<void> {
    await this.prisma.subsonicStar.deleteMany({ where: { userId, itemId: { in: ids } } });
  }

  async setRating(userId: string, itemId: string, rating: number): Promise<void> {
    if (rating === 0) await this.prisma.subsonicRating.deleteMany({ where: { userId, itemId } });
    else
      await this.prisma.subsonicRating.upsert({
        where: { userId_itemId: { userId, itemId } },
        create: { userId, itemId, rating },
        update: { rating },
      });
  }

  /** Versions still being processed and songs ready, for getScanStatus. */
  async scanState(v: Viewer): Promise<{ pending: number; ready: number }> {
    const [row] = await this.sql.rows<{ pending: number; ready: number }>(Prisma.sql`
      SELECT (SELECT count(*)::int FROM track_versions tv JOIN tracks t ON t.id = tv.track_id
                WHERE tv.status IN ('pending', 'processing')
                  AND ${visibleSql('list', { userId: v.userId, role: v.role ?? 'user' }, trackColumns('t'))}) AS pending,
             (SELECT count(*)::int FROM subsonic_songs s WHERE ${this.visible(v)}) AS ready`);
    return row ?? { pending: 0, ready: 0 };
  }
}
