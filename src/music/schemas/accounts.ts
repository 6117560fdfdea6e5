/** Request bodies of password reset, verification, address change and sessions (docs/accounts.md). */
import { Type } from 'typebox';
import { ACCOUNT_TOKEN_PATTERN } from '../services/account-tokens.js';
import { UUID_PATTERN } from './text.js';

const Email = Type.String({ format: 'email', maxLength: 254, description: 'an email address' });
const Token = Type.String({
  pattern: ACCOUNT_TOKEN_PATTERN,
  description: 'the 43-character token of the mailed link (after "#token=")',
});

export const PasswordResetBody = Type.Object({ email: Email }, { additionalProperties: false });

export const PasswordResetConfirmBody = Type.Object(
  {
    token: Token,
    password: Type.String({ minLength: 10, maxLength: 256, description: 'at least 10 characters' }),
  },
  { additionalProperties: false },
);

export const VerificationConfirmBody = Type.Object({ token: Token }, { additionalProperties: false });

export const EmailChangeBody = Type.Object(
  { email: Email, current_password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);

export const SessionParams = Type.Object(
  { id: Type.String({ pattern: UUID_PATTERN, description: 'a session id from GET /api/v1/me/sessions' }) },
  { additionalProperties: false },
);

export const FailedMailQuery = Type.Object(
  { limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }) },
  { additionalProperties: false },
);
