/** The body of PUT /api/v1/me/play-queue (bounds: services/play-queue-limits.ts). */
import { Type } from 'typebox';
import { PLAY_QUEUE_LIMITS } from '../services/play-queue-limits.js';
import { LINE_PATTERN } from './text.js';

// Ids are checked by the service, which names the ones that are not tracks the caller may play.
const TrackId = Type.String({ maxLength: 64 });

/** The whole queue each time: the tracks in order, the current one, where in it, and who saved it. */
export const PlayQueueBody = Type.Object(
  {
    track_ids: Type.Array(TrackId, { maxItems: PLAY_QUEUE_LIMITS.tracks }),
    current_id: Type.Optional(Type.Union([TrackId, Type.Null()])),
    current_index: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: PLAY_QUEUE_LIMITS.tracks - 1 }), Type.Null()]),
    ),
    position_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: PLAY_QUEUE_LIMITS.positionMs })),
    client: Type.Optional(
      Type.String({ minLength: 1, maxLength: PLAY_QUEUE_LIMITS.clientLength, pattern: LINE_PATTERN }),
    ),
  },
  { additionalProperties: false },
);
