/** Errors of accounts: verification, password reset, address change, sessions (docs/accounts.md). */
import { AppError } from '../../core/errors.js';

export const mailNotConfigured = (what: string) =>
  new AppError(
    'unavailable',
    `${what} needs outgoing mail, which this server has not configured (SMTP_HOST). Ask an administrator: they can set a password with "cli admin reset-password HANDLE".`,
    { headers: { 'retry-after': '3600' } },
  );

export const tokenNotValid = (what: 'verification' | 'reset') =>
  new AppError(
    'gone',
    what === 'reset'
      ? 'This password reset link is not valid: it was used already, has expired (30 minutes) or was replaced by a newer one. Ask for a new link.'
      : 'This confirmation link is not valid: it was used already, has expired (48 hours) or was replaced by a newer one. Ask for a new one from your account page.',
    { errors: [{ path: '/token', message: 'is unknown, used or expired' }] },
  );

export const alreadyVerified = () =>
  new AppError('conflict', 'This address is already verified; there is nothing to confirm.');

export const emailTaken = () =>
  new AppError('conflict', 'An account with this email already exists.', {
    errors: [{ path: '/email', message: 'is already registered' }],
  });

export const sameEmail = () =>
  new AppError('invalid_input', 'This is already the address of the account.', {
    errors: [{ path: '/email', message: 'is the current address' }],
  });

export const wrongCurrentPassword = () =>
  new AppError('forbidden', 'The current password is wrong.', {
    errors: [{ path: '/current_password', message: 'does not match the account' }],
  });

// The player shows `detail` to a person as it is: the API's way to a new link is the hint.
export const verificationRequired = (action: string) =>
  new AppError(
    'forbidden',
    `Verify your email address before ${action}: open the link we mailed you, or ask for a new one with "Resend" on your account page. Until then you can listen, upload and keep tracks private or unlisted.`,
    { extra: { hint: 'POST /api/v1/auth/verification mails a new link.' } },
  );

export const sessionNotFound = () =>
  new AppError('not_found', 'You have no session with this id (it may have ended or expired).', {
    errors: [{ path: '/id', message: 'is not one of your sessions' }],
  });

export const accountGone = () =>
  new AppError('unauthorized', 'The account of this token no longer exists.', {
    headers: { 'www-authenticate': 'Bearer realm="music"' },
  });

export const adminsOnly = () => new AppError('forbidden', 'This endpoint is for administrators only.');

export const mailLimited = (seconds: number) =>
  new AppError(
    'rate_limited',
    `A mail went to this address or for this account moments ago (one a minute per address, a few per account); ask again in ${seconds} s, and check the spam folder meanwhile.`,
    { headers: { 'retry-after': String(seconds) }, extra: { retry_after_seconds: seconds } },
  );
