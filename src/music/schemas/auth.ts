/** Request bodies of /api/v1/auth/*: every bound in the schema, unknown properties refused. */
import { Type } from 'typebox';

export const HANDLE_PATTERN = '^[A-Za-z0-9_]{3,30}$';

/** A handle, in a body or a path: its form in words for the messages (core/field-messages.ts). */
export const Handle = Type.String({
  pattern: HANDLE_PATTERN,
  description: '3 to 30 letters (a to z), digits or underscores (_)',
});

export const SignupBody = Type.Object(
  {
    handle: Handle,
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 10, maxLength: 256, description: 'at least 10 characters' }),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    login: Type.String({ minLength: 1, maxLength: 254, description: 'handle or email' }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);
