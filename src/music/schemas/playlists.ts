/** Request bodies and parameters of /api/v1/playlists (bounds: services/playlist-limits.ts). */
import { Type } from 'typebox';
import { PLAYLIST_LIMITS } from '../services/playlist-limits.js';
import { LINE_PATTERN } from './text.js';

const Name = Type.String({ minLength: 1, maxLength: PLAYLIST_LIMITS.nameLength, pattern: LINE_PATTERN });
// Ids are checked by the service, which names the ones that are not tracks the caller may play.
const TrackId = Type.String({ maxLength: 64 });
const TrackIds = Type.Array(TrackId, { maxItems: PLAYLIST_LIMITS.tracks });
/** A place among the songs the caller sees (as the pages number them) and the song they saw there. */
const Position = Type.Integer({ minimum: 0, maximum: PLAYLIST_LIMITS.tracks - 1 });
const EntryAt = { position: Position, track_id: TrackId };

export const CreatePlaylistBody = Type.Object(
  { name: Name, public: Type.Optional(Type.Boolean()), track_ids: Type.Optional(TrackIds) },
  { additionalProperties: false },
);

/**
 * One change of the songs at a time: `track_ids` is the new order of all the songs the caller
 * sees; `move` moves one; `remove` (positions as read) and then `add_track_ids` (at the end).
 * A position is checked against the song named with it: another there now is a 409.
 */
export const UpdatePlaylistBody = Type.Object(
  {
    name: Type.Optional(Name),
    public: Type.Optional(Type.Boolean()),
    track_ids: Type.Optional(TrackIds),
    add_track_ids: Type.Optional(Type.Array(TrackId, { minItems: 1, maxItems: PLAYLIST_LIMITS.tracks })),
    remove: Type.Optional(
      Type.Array(Type.Object(EntryAt, { additionalProperties: false }), {
        minItems: 1,
        maxItems: PLAYLIST_LIMITS.tracks,
      }),
    ),
    move: Type.Optional(Type.Object({ ...EntryAt, to: Position }, { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PlaylistParams = Type.Object(
  { id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

/**
 * GET /api/v1/playlists/:id (the playlist and a page of its songs, the first without `cursor`) and
 * /api/v1/playlists/:id/tracks (the page alone); `cursor` is next_cursor of the page before.
 */
export const PlaylistPageQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: PLAYLIST_LIMITS.maxPage, default: PLAYLIST_LIMITS.page }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
