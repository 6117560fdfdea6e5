/**
 * Tokens mailed for verification and password reset: 32 random bytes (base64url, 43
 * characters). Only the SHA-256 is stored and looked up, so a database read gives nothing usable;
 * a high-entropy token needs no slow hash, and the lookup by hash leaks nothing of it by timing.
 */
import { createHash, randomBytes } from 'node:crypto';

export const ACCOUNT_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';

export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newAccountToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashAccountToken(token) };
}

/**
 * A link of the player carrying the token in the fragment: browsers never send a fragment to the
 * server, so the token stays out of access logs and Referer headers.
 */
export function tokenLink(publicUrl: string, page: 'verify' | 'reset-password', token: string): string {
  return `${publicUrl}/${page}#token=${token}`;
}
