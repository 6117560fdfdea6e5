/** Tracks in PostgreSQL (read side needed by profiles; the full track API builds on it). */
import type { PrismaClient } from './prisma.js';

export interface TrackSummary {
  id: string;
  title: string;
  description: string;
  ownerUserId: string;
  visibility: 'public' | 'unlisted' | 'private';
  currentVersionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TrackCursor {
  createdAt: Date;
  id: string;
}

export interface TrackRepository {
  /** Public tracks of a user, newest first, strictly after `cursor`; at most `limit`. */
  listPublicByOwner(
    ownerUserId: string,
    limit: number,
    cursor: TrackCursor | undefined,
  ): Promise<TrackSummary[]>;
}

export class PrismaTrackRepository implements TrackRepository {
  constructor(private readonly prisma: PrismaClient) {}

  listPublicByOwner(
    ownerUserId: string,
    limit: number,
    cursor: TrackCursor | undefined,
  ): Promise<TrackSummary[]> {
    return this.prisma.track.findMany({
      where: {
        ownerUserId,
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
    });
  }
}
