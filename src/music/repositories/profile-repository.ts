/**
 * A public profile read in one SQL query: the user by handle joined laterally with one page of
 * their public tracks. One query, not two Prisma model queries, because this is the hottest
 * public read and Prisma's per-query work dominated its CPU (docs/music-edge.md, "Profile read").
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { TrackCursor } from './track-repository.js';
import type { PrismaClient } from './prisma.js';
import { trackColumns, visibleSql } from './visibility-sql.js';

export interface ProfileTrackRow {
  id: string;
  title: string;
  description: string;
  ownerUserId: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProfileRow {
  handle: string;
  displayName: string;
  bio: string;
  pictureKey: string | null;
  createdAt: Date;
  /** Newest first, strictly after the cursor. */
  tracks: ProfileTrackRow[];
}

export interface ProfileRepository {
  findByHandle(
    handle: string,
    limit: number,
    cursor: TrackCursor | undefined,
  ): Promise<ProfileRow | undefined>;
}

/** One row per track; a user without public tracks (on this page) is one row of NULL track columns. */
interface JoinedRow {
  handle: string;
  displayName: string;
  bio: string;
  pictureKey: string | null;
  userCreatedAt: Date;
  id: string | null;
  title: string | null;
  description: string | null;
  ownerUserId: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
}

export class PrismaProfileRepository implements ProfileRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async findByHandle(
    handle: string,
    limit: number,
    cursor: TrackCursor | undefined,
  ): Promise<ProfileRow | undefined> {
    const after = cursor
      ? Prisma.sql`AND (t.created_at < ${cursor.createdAt}
          OR (t.created_at = ${cursor.createdAt} AND t.id < ${cursor.id}::uuid))`
      : Prisma.empty;
    const rows = await this.prisma.$queryRaw<JoinedRow[]>`
      SELECT u.handle, u.display_name AS "displayName", u.bio, u.picture_key AS "pictureKey", u.created_at AS "userCreatedAt",
             p.id, p.title, p.description, p.owner_user_id AS "ownerUserId",
             p.created_at AS "createdAt", p.updated_at AS "updatedAt"
      FROM users u
      LEFT JOIN LATERAL (
        SELECT t.id, t.title, t.description, t.owner_user_id, t.created_at, t.updated_at
        FROM tracks t
        WHERE t.owner_user_id = u.id AND ${visibleSql('list', undefined, trackColumns('t'))} ${after}
        ORDER BY t.created_at DESC, t.id DESC
        LIMIT ${limit}
      ) p ON true
      WHERE u.handle = ${handle}
      ORDER BY p.created_at DESC, p.id DESC`;
    const first = rows[0];
    if (!first) return undefined;
    const tracks: ProfileTrackRow[] = [];
    for (const r of rows) {
      if (r.id === null || r.createdAt === null || r.updatedAt === null) continue;
      tracks.push({
        id: r.id,
        title: r.title ?? '',
        description: r.description ?? '',
        ownerUserId: r.ownerUserId ?? '',
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      });
    }
    return {
      handle: first.handle,
      displayName: first.displayName,
      bio: first.bio,
      pictureKey: first.pictureKey,
      createdAt: first.userCreatedAt,
      tracks,
    };
  }
}
