/** Query strings and parameters of search, artists, albums and new uploads. */
import { Type } from 'typebox';
import { LINE_PATTERN } from './text.js';

export const SearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200, pattern: LINE_PATTERN }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 }),
  },
  { additionalProperties: false },
);

export const NewestQuery = Type.Object(
  { limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) },
  { additionalProperties: false },
);

/** Any text: an id that names nothing is a 404 from the service. */
export const CatalogParams = Type.Object(
  { id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
