/** Comments in PostgreSQL; deletion is soft (deleted_at), so cursors over a thread stay stable. */
import type { PrismaClient } from './prisma.js';
import type { TrackCursor } from './track-repository.js';

export interface CommentRecord {
  id: string;
  trackId: string;
  userId: string;
  body: string;
  positionMs: number | null;
  versionId: string | null;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  user: { handle: string; displayName: string };
}

const withUser = { user: { select: { handle: true, displayName: true } } } as const;

export interface CommentRepository {
  create(comment: {
    trackId: string;
    userId: string;
    body: string;
    positionMs: number | null;
    versionId: string | null;
  }): Promise<CommentRecord>;
  findById(id: string): Promise<CommentRecord | undefined>;
  /** A track's live comments, oldest first, strictly after `cursor`; at most `limit`. */
  listByTrack(trackId: string, limit: number, cursor: TrackCursor | undefined): Promise<CommentRecord[]>;
  /** Live comments of a track (the track page's count). */
  countByTrack(trackId: string): Promise<number>;
  editBody(id: string, body: string, at: Date): Promise<CommentRecord>;
  softDelete(id: string, at: Date): Promise<void>;
}

export class PrismaCommentRepository implements CommentRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(comment: {
    trackId: string;
    userId: string;
    body: string;
    positionMs: number | null;
    versionId: string | null;
  }): Promise<CommentRecord> {
    return this.prisma.comment.create({ data: comment, include: withUser });
  }

  async findById(id: string): Promise<CommentRecord | undefined> {
    return (await this.prisma.comment.findUnique({ where: { id }, include: withUser })) ?? undefined;
  }

  /** A track's live comments, oldest first, strictly after `cursor`; at most `limit`. */
  listByTrack(trackId: string, limit: number, cursor: TrackCursor | undefined): Promise<CommentRecord[]> {
    return this.prisma.comment.findMany({
      where: {
        trackId,
        deletedAt: null,
        ...(cursor
          ? {
              OR: [
                { createdAt: { gt: cursor.createdAt } },
                { createdAt: cursor.createdAt, id: { gt: cursor.id } },
              ],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit,
      include: withUser,
    });
  }

  /** Live comments of a track (the track page's count). */
  countByTrack(trackId: string): Promise<number> {
    return this.prisma.comment.count({ where: { trackId, deletedAt: null } });
  }

  editBody(id: string, body: string, at: Date): Promise<CommentRecord> {
    return this.prisma.comment.update({ where: { id }, data: { body, editedAt: at }, include: withUser });
  }

  async softDelete(id: string, at: Date): Promise<void> {
    await this.prisma.comment.updateMany({ where: { id, deletedAt: null }, data: { deletedAt: at } });
  }
}
