/**
 * The Subsonic library in PostgreSQL: songs are rows of the `subsonic_songs` view (each
 * track's current ready version); albums and artists are groups of them by the generated
 * ids of migration 20261125041000. Every query is for one caller: public songs plus the
 * caller's own (music folder 1, "Everyone"), or the caller's own only (folder 2, "Mine").
 * Search reads subsonic_song_search (one row a song, kept by triggers) through its GIN or title
 * index, never a scan. Reads go through pg as prepared statements (sql-reader.ts); stars and ratings are
 * annotation-repository.ts.
 */
import { Prisma } from '../../../../generated/prisma/client.js';
import { trackColumns, visibleSql, type Access } from '../visibility-sql.js';
import {
  FOLDER_MINE,
  NIL_UUID,
  prefixQuery,
  type AlbumListQuery,
  type AlbumRow,
  type ArtistRow,
  type SongRow,
  type Viewer,
} from './library-model.js';
import {
  ALBUM_COLUMNS,
  ALBUM_KEYS,
  ALBUM_SONG_ORDER,
  SONG_COLUMNS,
  SONG_ORDER_KEYS,
  SONG_VISIBILITY,
  albumOrder,
  iso,
  type AlbumSelect,
} from './library-sql.js';
import type { SqlReader } from './sql-reader.js';

export class SubsonicLibraryRepository {
  constructor(private readonly sql: SqlReader) {}

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

  /**
   * A playlist's songs the caller may read (as by id), in playlist order: `limit` of them after
   * the first `offset` such songs. Entries hidden from the caller are skipped, never counted.
   */
  playlistSongs(v: Viewer, playlistId: string, limit: number, offset: number): Promise<SongRow[]> {
    // Entries walked in order, one song lookup each (a plan that holds with stale statistics); wide columns for the page only.
    return this.sql.rows<SongRow>(Prisma.sql`WITH page AS (
        SELECT e.position, e.track_id FROM playlist_entries e CROSS JOIN LATERAL
          (SELECT 1 FROM subsonic_songs s WHERE s.id = e.track_id AND ${this.visible(v, 'read')} LIMIT 1) seen
        WHERE e.playlist_id = ${playlistId}::uuid
        ORDER BY e.position LIMIT ${limit} OFFSET ${offset})
      SELECT ${SONG_COLUMNS} FROM page JOIN subsonic_songs s ON s.id = page.track_id ${this.songJoins(v)}
      ORDER BY page.position`);
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
