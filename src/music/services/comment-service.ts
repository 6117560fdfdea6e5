/**
 * Comments on tracks: visible exactly when the track is (a private track's comments are a
 * 404 to others); a position is a time of one version (the shown one unless the comment names
 * another of the track's) and must lie within it; edited by their author; deleted by their
 * author, the track's owner or an admin (soft delete).
 */
import { excerpt, NO_EVENTS, publishQuietly, type EventPublisher } from './live-events.js';
import { isUuid } from '../uuid.js';
import type { AuthContext } from '../auth-context.js';
import type { CommentRecord, CommentRepository } from '../repositories/comment-repository.js';
import type { TrackService } from './track-service.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';
import {
  commentBlank,
  commentDeleteForbidden,
  commentEditForbidden,
  commentNotFound,
  positionPastEnd,
} from '../errors/comments.js';

export interface NewCommentInput {
  track_id: string;
  body: string;
  position_ms?: number;
  version_id?: string;
}

export interface CommentPage {
  limit: number;
  cursor?: string;
}

function commentView(c: CommentRecord) {
  return {
    id: c.id,
    track_id: c.trackId,
    version_id: c.versionId,
    user: { id: c.userId, handle: c.user.handle, display_name: c.user.displayName },
    body: c.body,
    position_ms: c.positionMs,
    created_at: c.createdAt.toISOString(),
    edited_at: c.editedAt?.toISOString() ?? null,
  };
}

function assertNotBlank(body: string): void {
  if (body.trim() === '') {
    throw commentBlank();
  }
}

const clock = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export class CommentService {
  constructor(
    private readonly comments: CommentRepository,
    private readonly tracks: TrackService,
    private readonly now: () => Date = () => new Date(),
    private readonly events: EventPublisher = NO_EVENTS,
  ) {}

  async create(auth: AuthContext, input: NewCommentInput) {
    const track = await this.tracks.visible(auth, input.track_id);
    assertNotBlank(input.body);
    const version = await this.tracks.commentVersion(track, input.version_id);
    if (
      input.position_ms !== undefined &&
      version?.durationMs !== null &&
      version?.durationMs !== undefined &&
      input.position_ms > version.durationMs
    ) {
      throw positionPastEnd(version.number, clock(version.durationMs));
    }
    const comment = await this.comments.create({
      trackId: track.id,
      userId: auth.userId,
      body: input.body,
      positionMs: input.position_ms ?? null,
      versionId: version?.id ?? null,
    });
    if (track.ownerUserId !== auth.userId) {
      await publishQuietly(this.events, track.ownerUserId, {
        type: 'comment.created',
        data: {
          track_id: track.id,
          track_title: track.title,
          comment_id: comment.id,
          author: { handle: comment.user.handle, display_name: comment.user.displayName },
          excerpt: excerpt(comment.body),
          position_ms: comment.positionMs,
        },
      });
    }
    return commentView(comment);
  }

  async list(auth: AuthContext | undefined, trackId: string, page: CommentPage) {
    const track = await this.tracks.visible(auth, trackId);
    const cursor = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const rows = await this.comments.listByTrack(track.id, page.limit + 1, cursor);
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items: items.map(commentView),
      next_cursor: rows.length > page.limit && last ? encodeCursor(last) : null,
    };
  }

  /** A live comment on a track `auth` sees, else a 404. */
  private async visibleComment(auth: AuthContext, id: string) {
    if (!isUuid(id)) throw commentNotFound();
    const comment = await this.comments.findById(id.toLowerCase());
    if (!comment || comment.deletedAt !== null) throw commentNotFound();
    // The comment of a track one cannot see does not exist for them.
    const track = await this.tracks.visible(auth, comment.trackId).catch(() => {
      throw commentNotFound();
    });
    return { comment, track };
  }

  async edit(auth: AuthContext, id: string, body: string) {
    const { comment } = await this.visibleComment(auth, id);
    if (auth.userId !== comment.userId) throw commentEditForbidden();
    assertNotBlank(body);
    return commentView(await this.comments.editBody(comment.id, body, this.now()));
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const { comment, track } = await this.visibleComment(auth, id);
    if (auth.userId !== comment.userId && auth.userId !== track.ownerUserId && auth.role !== 'admin') {
      throw commentDeleteForbidden();
    }
    await this.comments.softDelete(comment.id, this.now());
  }

  count(trackId: string): Promise<number> {
    return this.comments.countByTrack(trackId);
  }
}
