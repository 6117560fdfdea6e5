/** Errors of signing in, sessions and accounts' passwords. */
import { AppError } from '../../core/errors.js';

export const unauthorized = (detail: string): AppError =>
  new AppError('unauthorized', detail, { headers: { 'www-authenticate': 'Bearer realm="music"' } });

/**
 * The web player's session cookie no longer works (ended on another device, logged out, expired):
 * read by a person, so in their words; `session_ended` lets the page offer its way to log in.
 */
export const sessionEnded = (): AppError =>
  new AppError('unauthorized', 'Your session has ended. Log in again.', {
    headers: { 'www-authenticate': 'Bearer realm="music"' },
    extra: { session_ended: true },
  });

export const currentPasswordWrong = (): AppError =>
  new AppError('forbidden', 'The current password is wrong.', {
    errors: [{ path: '/current_password', message: 'does not match the account' }],
  });

export const passwordHoldsHandleOrEmail = (): AppError =>
  new AppError('invalid_input', 'The password must not contain the handle or be the email.', {
    errors: [{ path: '/new_password', message: 'must not contain the handle or equal the email' }],
  });

/** `problem` completes "The password ..." (services/password-policy.ts). */
export const weakPassword = (problem: string): AppError =>
  new AppError('invalid_input', `The password ${problem}.`, {
    errors: [{ path: '/password', message: problem }],
  });

export const crossSiteCookieRequest = (): AppError =>
  new AppError(
    'forbidden',
    'A request authenticated by the session cookie must come from this site (its Origin header did not match); API clients send "Authorization: Bearer <token>" instead.',
  );

export const adminsOnly = (): AppError =>
  new AppError('forbidden', 'This endpoint is for administrators only.');

/** Without the revocation list a logged-out token cannot be told apart: fail closed, as a 503. */
export const sessionStoreUnavailable = (): AppError =>
  new AppError('unavailable', 'The session store is unavailable; retry in a few seconds.', {
    headers: { 'retry-after': '5' },
  });

/** The bounded queue of password hashes is full (services/hash-queue.ts): shed, not slowed. */
export const passwordChecksBusy = (seconds: number): AppError =>
  new AppError(
    'unavailable',
    `The server is checking too many passwords at once; try again in ${seconds} s.`,
    { headers: { 'retry-after': String(seconds) }, extra: { retry_after_seconds: seconds } },
  );

/** The account's wait after repeated failed logins (services/login-backoff.ts). */
export const loginBackoff = (seconds: number): AppError =>
  new AppError(
    'rate_limited',
    `Too many failed logins for this account; try again in ${seconds} s. The owner can get in at once with a password reset link (POST /api/v1/auth/password-reset), which also ends this wait.`,
    { headers: { 'retry-after': String(seconds) }, extra: { retry_after_seconds: seconds } },
  );
