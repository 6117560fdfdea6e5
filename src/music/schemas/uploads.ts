/** Request bodies and parameters of /api/v1/upload/multipart/*. */
import { Type } from 'typebox';
import { LINE_PATTERN } from './text.js';

const MiB = 1024 * 1024;

export const InitUploadBody = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255, pattern: LINE_PATTERN }),
    content_type: Type.String({
      maxLength: 127,
      pattern: '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$',
      description: 'a media type such as audio/flac',
    }),
    size: Type.Integer({ minimum: 1, description: 'bytes; at most 500 MB' }),
    sha256: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: '64 hex digits' })),
    part_size: Type.Optional(
      Type.Integer({ minimum: 5 * MiB, maximum: 100 * MiB, description: 'bytes, 5 MiB to 100 MiB' }),
    ),
  },
  { additionalProperties: false },
);

export const CompleteUploadBody = Type.Object(
  {
    upload_id: Type.String({ minLength: 1, maxLength: 64 }),
    asset_id: Type.String({ minLength: 1, maxLength: 64 }),
    parts: Type.Array(
      Type.Object(
        {
          part_number: Type.Integer({ minimum: 1, maximum: 10_000 }),
          etag: Type.String({ minLength: 1, maxLength: 128, pattern: '^"?[A-Za-z0-9-]+"?$' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10_000 },
    ),
  },
  { additionalProperties: false },
);

export const UploadParams = Type.Object({ upload_id: Type.String() }, { additionalProperties: false });

export const PartParams = Type.Object(
  { upload_id: Type.String(), n: Type.Integer({ minimum: 1, maximum: 10_000 }) },
  { additionalProperties: false },
);
