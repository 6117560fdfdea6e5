/** Request bodies and parameters of /api/v1/playlists (bounds: services/playlist-service.ts PLAYLIST_LIMITS). */
import { Type } from 'typebox';
import { LINE_PATTERN } from './text.js';

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: LINE_PATTERN });
// Ids are checked by the service, which names the ones that are not tracks the caller may play.
const TrackIds = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10_000 });

export const CreatePlaylistBody = Type.Object(
  { name: Name, public: Type.Optional(Type.Boolean()), track_ids: Type.Optional(TrackIds) },
  { additionalProperties: false },
);

/** `track_ids` is the new order of the songs the caller sees: added, removed and moved in one write. */
export const UpdatePlaylistBody = Type.Object(
  { name: Type.Optional(Name), public: Type.Optional(Type.Boolean()), track_ids: Type.Optional(TrackIds) },
  { additionalProperties: false, minProperties: 1 },
);

export const PlaylistParams = Type.Object(
  { id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
