/** Request bodies of /api/v1/analytics and the trending query. */
import { Type } from 'typebox';

export const PlayBody = Type.Object(
  {
    track_id: Type.String({ minLength: 1, maxLength: 64 }),
    version_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    position_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
  },
  { additionalProperties: false },
);

export const TrendingQuery = Type.Object(
  {
    window: Type.Union([Type.Literal('day'), Type.Literal('week')], { default: 'day' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);
