/**
 * A public profile read in one Prisma query: the user by handle with one page of their public
 * tracks (a relation select). Two queries (user, then tracks) cost about six times the CPU per
 * request, almost all of it in Prisma's per-query work (docs/music-edge.md, "Profile read").
 */
import type { TrackCursor } from './track-repository.js';
import type { PrismaClient } from './prisma.js';

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

const TRACK_COLUMNS = {
  id: true,
  title: true,
  description: true,
  ownerUserId: true,
  createdAt: true,
  updatedAt: true,
} as const;

export class PrismaProfileRepository implements ProfileRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async findByHandle(
    handle: string,
    limit: number,
    cursor: TrackCursor | undefined,
  ): Promise<ProfileRow | undefined> {
    const row = await this.prisma.user.findUnique({
      where: { handle },
      select: {
        handle: true,
        displayName: true,
        createdAt: true,
        tracks: {
          where: {
            visibility: 'public',
            ...(cursor
              ? {
                  OR: [
                    { createdAt: { lt: cursor.createdAt } },
                    { createdAt: cursor.createdAt, id: { lt: cursor.id } },
                  ],
                }
              : {}),
          },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: limit,
          select: TRACK_COLUMNS,
        },
      },
    });
    return row ?? undefined;
  }
}
