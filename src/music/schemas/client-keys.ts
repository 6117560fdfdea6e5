/** Request bodies and parameters of /api/v1/me/client-keys. */
import { Type } from 'typebox';
import { TEXT_PATTERN } from './text.js';

export const NewClientKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: TEXT_PATTERN }) },
  { additionalProperties: false },
);

export const ClientKeyParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
