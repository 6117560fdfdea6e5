/** Request bodies and parameters of /api/v1/comments. */
import { Type } from 'typebox';
import { TEXT_PATTERN } from './text.js';

export const NewCommentBody = Type.Object(
  {
    track_id: Type.String({ minLength: 1, maxLength: 64 }),
    body: Type.String({ minLength: 1, maxLength: 2000, pattern: TEXT_PATTERN }),
    position_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
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

export const CommentParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
