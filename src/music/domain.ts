/** Types of the music domain shared by routes, services and repositories. */

export type Role = 'user' | 'admin';

export type Visibility = 'public' | 'unlisted' | 'private';

/** Who made a request: resolved once per request by the auth hook from a bearer token. */
export interface AuthContext {
  userId: string;
  handle: string;
  role: Role;
  /** The token's id (revocation is by jti). */
  jti: string;
  /** The token's expiry (seconds since epoch): how long a revocation must be kept. */
  exp: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else names nothing (a 404 before any query). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
