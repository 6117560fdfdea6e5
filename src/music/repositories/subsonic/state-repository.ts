/** Per-user Subsonic state: playlists, bookmarks, the saved play queue, and now-playing (Redis). */
import type { Redis } from 'ioredis';
import { Prisma } from '../../../../generated/prisma/client.js';
import type { PrismaClient } from '../prisma.js';
import { insertWithinBound } from '../count-bound.js';
import { visibleSql } from '../visibility-sql.js';
import { SONG_VISIBILITY } from './library-sql.js';
import type { Viewer } from './library-model.js';
import type { CurrentEntry } from '../../services/playlist-entries.js';

/** A playlist without its entries (those are read a page at a time, or under the lock of an edit). */
export interface PlaylistRecord {
  id: string;
  ownerUserId: string;
  ownerHandle: string;
  ownerName: string;
  name: string;
  comment: string;
  public: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What a list of playlists shows of each one's songs (those the viewer may play). */
export interface PlaylistSongSummary {
  playlistId: string;
  trackCount: number;
  durationMs: number;
  coverKey: string | null;
  /** The first playable song with a cover (Subsonic's coverArt names a song). */
  coverSongId: string | null;
}

/** How long a now-playing report stays listed without a new one. */
export const NOW_PLAYING_SECONDS = 15 * 60;

const HEADER_INCLUDE = { owner: { select: { handle: true, displayName: true } } } as const;

interface PlaylistRow {
  id: string;
  ownerUserId: string;
  owner: { handle: string; displayName: string };
  name: string;
  comment: string;
  public: boolean;
  createdAt: Date;
  updatedAt: Date;
}

function playlistRecord(p: PlaylistRow): PlaylistRecord {
  return {
    id: p.id,
    ownerUserId: p.ownerUserId,
    ownerHandle: p.owner.handle,
    ownerName: p.owner.displayName,
    name: p.name,
    comment: p.comment,
    public: p.public,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** A playlist's entries in order, each with whether `v` may play its song (read access, as by id). */
function currentEntriesSql(playlistId: string, v: Viewer): Prisma.Sql {
  const visible = visibleSql('read', { userId: v.userId, role: v.role ?? 'user' }, SONG_VISIBILITY);
  return Prisma.sql`SELECT e.track_id::text AS "trackId", coalesce(s.id IS NOT NULL AND ${visible}, false) AS playable
    FROM playlist_entries e LEFT JOIN subsonic_songs s ON s.id = e.track_id
    WHERE e.playlist_id = ${playlistId}::uuid ORDER BY e.position`;
}

export class SubsonicStateRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** The playlist's fields, not its entries (a public one may hold 10,000). */
  async findPlaylist(id: string): Promise<PlaylistRecord | undefined> {
    const p = await this.prisma.playlist.findUnique({ where: { id }, include: HEADER_INCLUDE });
    return p ? playlistRecord(p) : undefined;
  }

  /**
   * The caller's own playlists (all of them: an owner has a bounded number), then at most
   * `othersLimit` public ones of others, oldest first, so others' new playlists never push
   * the caller's out. Headers only: the entries are counted by playlistSongSummaries.
   */
  async listPlaylists(userId: string, ownLimit: number, othersLimit: number): Promise<PlaylistRecord[]> {
    const orderBy = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
    const [own, others] = await Promise.all([
      this.prisma.playlist.findMany({
        where: { ownerUserId: userId },
        include: HEADER_INCLUDE,
        orderBy,
        take: ownLimit,
      }),
      this.prisma.playlist.findMany({
        where: { public: true, ownerUserId: { not: userId } },
        include: HEADER_INCLUDE,
        orderBy,
        take: othersLimit,
      }),
    ]);
    return [...own, ...others].map(playlistRecord);
  }

  /** The owner's playlists, most recently changed first (headers only). */
  async ownPlaylists(ownerUserId: string, limit: number): Promise<PlaylistRecord[]> {
    const rows = await this.prisma.playlist.findMany({
      where: { ownerUserId },
      include: HEADER_INCLUDE,
      orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
      take: limit,
    });
    return rows.map(playlistRecord);
  }

  /** A new playlist, unless the owner has `maxPerOwner` already (undefined then; count-bound.ts). */
  async createPlaylist(
    ownerUserId: string,
    fields: { name: string; public?: boolean; trackIds: string[] },
    maxPerOwner = Number.MAX_SAFE_INTEGER,
  ): Promise<string | undefined> {
    const created = await insertWithinBound(this.prisma, {
      kind: 'playlists',
      ownerId: ownerUserId,
      max: maxPerOwner,
      count: (tx) => tx.playlist.count({ where: { ownerUserId } }),
      insert: (tx) =>
        tx.playlist.create({
          data: {
            ownerUserId,
            name: fields.name,
            public: fields.public ?? false,
            entries: { create: fields.trackIds.map((trackId, position) => ({ trackId, position })) },
          },
        }),
    });
    return created?.id;
  }

  /**
   * Changes fields and replaces the entries in one transaction; the playlist's row is locked
   * first, so two replacements at once are applied one after the other (never a duplicate position).
   * `entries` computes the new entries from the current ones, read under that lock, each marked
   * playable or not for `viewer` (services/playlist-entries.ts keeps the others in place).
   * false when the playlist is gone (deleted by a request that ran meanwhile).
   */
  async updatePlaylist(
    id: string,
    changes: {
      name?: string;
      comment?: string;
      public?: boolean;
      trackIds?: string[];
      entries?: { viewer: Viewer; edit: (current: CurrentEntry[]) => string[] };
    },
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<unknown[]>`SELECT 1 FROM playlists WHERE id = ${id}::uuid FOR UPDATE`;
      if (locked.length === 0) return false;
      const entries = changes.entries
        ? changes.entries.edit(
            await tx.$queryRaw<CurrentEntry[]>(currentEntriesSql(id, changes.entries.viewer)),
          )
        : changes.trackIds;
      await tx.playlist.update({
        where: { id },
        data: {
          updatedAt: new Date(),
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.comment !== undefined ? { comment: changes.comment } : {}),
          ...(changes.public !== undefined ? { public: changes.public } : {}),
        },
      });
      if (entries) {
        await tx.playlistEntry.deleteMany({ where: { playlistId: id } });
        await tx.playlistEntry.createMany({
          data: entries.map((trackId, position) => ({ playlistId: id, trackId, position })),
        });
      }
      return true;
    });
  }

  /** Per playlist: how many of its songs the viewer may play, their length, the first cover. */
  async playlistSongSummaries(v: Viewer, playlistIds: string[]): Promise<PlaylistSongSummary[]> {
    if (playlistIds.length === 0) return [];
    const visible = visibleSql('read', { userId: v.userId, role: v.role ?? 'user' }, SONG_VISIBILITY);
    // Entries are folded per distinct track first (a 10,000-entry playlist of 100 songs joins
    // 100 song rows, not 10,000), each with its count and first position; then one song lookup
    // a track (LIMIT 1 keeps it a lookup, not a join the planner may loop with stale statistics).
    return this.prisma.$queryRaw<PlaylistSongSummary[]>(Prisma.sql`
      WITH per_track AS (
        SELECT e.playlist_id, e.track_id, count(*) AS n, min(e.position) AS first_position
        FROM playlist_entries e
        WHERE e.playlist_id = ANY(${playlistIds}::uuid[])
        GROUP BY e.playlist_id, e.track_id
      )
      SELECT t.playlist_id::text AS "playlistId", sum(t.n)::int AS "trackCount",
             coalesce(sum(t.n * s.duration_ms), 0)::float8 AS "durationMs",
             (array_agg(s.artwork_key ORDER BY t.first_position) FILTER (WHERE s.artwork_key IS NOT NULL))[1] AS "coverKey",
             (array_agg(s.id::text ORDER BY t.first_position) FILTER (WHERE s.artwork_key IS NOT NULL))[1] AS "coverSongId"
      FROM per_track t
      CROSS JOIN LATERAL (SELECT s.id, s.duration_ms, s.artwork_key FROM subsonic_songs s
        WHERE s.id = t.track_id AND ${visible} LIMIT 1) s
      GROUP BY t.playlist_id`);
  }

  async deletePlaylist(id: string): Promise<void> {
    await this.prisma.playlist.deleteMany({ where: { id } });
  }

  bookmarks(userId: string) {
    return this.prisma.bookmark.findMany({ where: { userId }, orderBy: { updatedAt: 'desc' }, take: 1000 });
  }

  async saveBookmark(userId: string, trackId: string, positionMs: number, comment: string): Promise<void> {
    await this.prisma.bookmark.upsert({
      where: { userId_trackId: { userId, trackId } },
      create: { userId, trackId, positionMs: BigInt(positionMs), comment },
      update: { positionMs: BigInt(positionMs), comment },
    });
  }

  async deleteBookmark(userId: string, trackId: string): Promise<boolean> {
    return (await this.prisma.bookmark.deleteMany({ where: { userId, trackId } })).count > 0;
  }

  playQueue(userId: string) {
    return this.prisma.playQueue.findUnique({ where: { userId } });
  }

  async savePlayQueue(
    userId: string,
    queue: { trackIds: string[]; currentIndex: number | null; positionMs: number; changedBy: string },
  ): Promise<void> {
    const data = {
      trackIds: queue.trackIds,
      currentIndex: queue.currentIndex,
      positionMs: BigInt(queue.positionMs),
      changedBy: queue.changedBy,
    };
    await this.prisma.playQueue.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  }

  async clearPlayQueue(userId: string): Promise<void> {
    await this.prisma.playQueue.deleteMany({ where: { userId } });
  }

  private nowPlayingKey(): string {
    return `${this.keyPrefix}subsonic:now-playing`;
  }

  /** One entry per user (the latest report), read back only while fresh. */
  async setNowPlaying(
    userId: string,
    entry: { trackId: string; handle: string; client: string; atMs: number },
  ): Promise<void> {
    await this.redis.hset(this.nowPlayingKey(), userId, JSON.stringify(entry));
  }

  async nowPlaying(
    nowMs: number,
  ): Promise<{ userId: string; trackId: string; handle: string; client: string; atMs: number }[]> {
    const all = await this.redis.hgetall(this.nowPlayingKey());
    const out = [];
    const stale: string[] = [];
    for (const [userId, text] of Object.entries(all)) {
      const entry = JSON.parse(text) as { trackId: string; handle: string; client: string; atMs: number };
      if (nowMs - entry.atMs > NOW_PLAYING_SECONDS * 1000) stale.push(userId);
      else out.push({ userId, ...entry });
    }
    if (stale.length > 0) await this.redis.hdel(this.nowPlayingKey(), ...stale);
    return out;
  }
}
