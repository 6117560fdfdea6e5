/** Request bodies and parameters of /api/v1/comments. */
import { Type } from 'typebox';
import { TEXT_PATTERN, UUID_PATTERN } from './text.js';

const Body = Type.String({ minLength: 1, maxLength: 2000, pattern: TEXT_PATTERN });

export const NewCommentBody = Type.Object(
  {
    track_id: Type.String({ minLength: 1, maxLength: 64 }),
    body: Body,
    position_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
    /** The version position_ms is a time of (default: the version the track shows now). */
    version_id: Type.Optional(Type.String({ pattern: UUID_PATTERN })),
  },
  { additionalProperties: false },
);

export const CommentsQuery = Type.Object(
  {
    track_id: Type.String({ minLength: 1, maxLength: 64 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** GET /api/v1/tracks/:id/comments: a page of the track's comments. */
export const TrackCommentsQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const EditCommentBody = Type.Object({ body: Body }, { additionalProperties: false });

export const CommentParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
