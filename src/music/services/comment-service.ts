/**
 * Comments on tracks: visible exactly when the track is (a private track's comments are a
 * 404 to others); deleted by their author, the track's owner or an admin (soft delete).
 */
import { AppError } from '../../core/errors.js';
import { isUuid, type AuthContext } from '../domain.js';
import type { CommentRecord, CommentRepository } from '../repositories/comment-repository.js';
import type { TrackService } from './track-service.js';
import { decodeCursor, encodeCursor } from './user-service.js';

export interface NewCommentInput {
  track_id: string;
  body: string;
  position_ms?: number;
}

function commentView(c: CommentRecord) {
  return {
    id: c.id,
    track_id: c.trackId,
    user: { id: c.userId, handle: c.user.handle, display_name: c.user.displayName },
    body: c.body,
    position_ms: c.positionMs,
    created_at: c.createdAt.toISOString(),
  };
}

const noComment = (): AppError => new AppError('not_found', 'No comment with this id.');

export class CommentService {
  constructor(
    private readonly comments: CommentRepository,
    private readonly tracks: TrackService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(auth: AuthContext, input: NewCommentInput) {
    const track = await this.tracks.visible(auth, input.track_id);
    if (input.body.trim() === '') {
      throw new AppError('invalid_input', 'A comment needs some text.', {
        errors: [{ path: '/body', message: 'must not be blank' }],
      });
    }
    const comment = await this.comments.create({
      trackId: track.id,
      userId: auth.userId,
      body: input.body,
      positionMs: input.position_ms ?? null,
    });
    return commentView(comment);
  }

  async list(auth: AuthContext | undefined, query: { track_id: string; limit: number; cursor?: string }) {
    const track = await this.tracks.visible(auth, query.track_id);
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = await this.comments.listByTrack(track.id, query.limit + 1, cursor);
    const items = rows.slice(0, query.limit);
    const last = items[items.length - 1];
    return {
      items: items.map(commentView),
      next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
    };
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    if (!isUuid(id)) throw noComment();
    const comment = await this.comments.findById(id.toLowerCase());
    if (!comment || comment.deletedAt !== null) throw noComment();
    // The comment of a track one cannot see does not exist for them.
    const track = await this.tracks.visible(auth, comment.trackId).catch(() => {
      throw noComment();
    });
    if (auth.userId !== comment.userId && auth.userId !== track.ownerUserId && auth.role !== 'admin') {
      throw new AppError(
        'forbidden',
        "Only the comment's author, the track's owner or an admin may delete it.",
      );
    }
    await this.comments.softDelete(comment.id, this.now());
  }
}
