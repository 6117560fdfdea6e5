import { Type } from 'typebox';
import { Handle } from './auth.js';
import { LINE_PATTERN, TEXT_PATTERN } from './text.js';

export const HandleParams = Type.Object({ handle: Handle }, { additionalProperties: false });

export const PageQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const UpdateMeBody = Type.Object(
  {
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: LINE_PATTERN })),
    // The profile's short bio: empty clears it; newlines kept, other control characters refused.
    bio: Type.Optional(Type.String({ maxLength: 2000, pattern: TEXT_PATTERN })),
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    new_password: Type.Optional(
      Type.String({ minLength: 10, maxLength: 256, description: 'at least 10 characters' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
