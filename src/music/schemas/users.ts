import { Type } from '@sinclair/typebox';
import { HANDLE_PATTERN } from './auth.js';

export const HandleParams = Type.Object(
  { handle: Type.String({ pattern: HANDLE_PATTERN }) },
  { additionalProperties: false },
);

export const ProfileQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
