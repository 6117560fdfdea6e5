import { Type } from 'typebox';

export const RetryJobsBody = Type.Object(
  {
    queue: Type.String({ minLength: 1, maxLength: 64 }),
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  },
  { additionalProperties: false },
);

export const StartLibraryImportBody = Type.Object(
  {
    directory: Type.String({ minLength: 1, maxLength: 4096, pattern: '^/' }),
    owner: Type.String({ minLength: 1, maxLength: 30 }),
    visibility: Type.Optional(
      Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')]),
    ),
    prune: Type.Optional(Type.Boolean()),
    in_place: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const LibraryImportParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const LibraryImportList = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});
