/** Request bodies and parameters of /api/v1/tracks. */
import { Type } from 'typebox';
import { LINE_PATTERN, TEXT_PATTERN, UUID_PATTERN } from './text.js';

const Visibility = Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')]);
const Title = Type.String({ minLength: 1, maxLength: 200, pattern: LINE_PATTERN });
const Description = Type.String({ maxLength: 5000, pattern: TEXT_PATTERN });

const tagText = (maxLength: number) =>
  Type.Union([Type.String({ minLength: 1, maxLength, pattern: LINE_PATTERN }), Type.Null()]);
const tagNumber = Type.Union([Type.Integer({ minimum: 0, maximum: 9999 }), Type.Null()]);
const mbid = Type.Union([Type.String({ pattern: UUID_PATTERN }), Type.Null()]);

/** Editable tags of the shown version; null clears one. */
export const TagsBody = Type.Object(
  {
    title: Type.Optional(tagText(500)),
    artist: Type.Optional(tagText(500)),
    album_artist: Type.Optional(tagText(500)),
    album: Type.Optional(tagText(500)),
    genre: Type.Optional(tagText(200)),
    track_number: Type.Optional(tagNumber),
    disc_number: Type.Optional(tagNumber),
    year: Type.Optional(tagNumber),
    date: Type.Optional(Type.Union([Type.String({ format: 'partial-date', maxLength: 10 }), Type.Null()])),
    musicbrainz_recording_id: Type.Optional(mbid),
    musicbrainz_track_id: Type.Optional(mbid),
    musicbrainz_album_id: Type.Optional(mbid),
    musicbrainz_artist_id: Type.Optional(mbid),
    musicbrainz_album_artist_id: Type.Optional(mbid),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CreateTrackBody = Type.Object(
  { title: Title, description: Type.Optional(Description), visibility: Type.Optional(Visibility) },
  { additionalProperties: false },
);

export const UpdateTrackBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    visibility: Type.Optional(Visibility),
    tags: Type.Optional(TagsBody),
    /** A ready version of this track, shown from now on (the newest ready one is by default). */
    current_version_id: Type.Optional(Type.String({ pattern: UUID_PATTERN })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AddVersionBody = Type.Object(
  { asset_id: Type.String({ pattern: UUID_PATTERN, description: 'the asset_id of a completed upload' }) },
  { additionalProperties: false },
);

/** Any text: a non-UUID id is a 404 from the service, not a 400. */
export const TrackParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
