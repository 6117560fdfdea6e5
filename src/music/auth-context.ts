/** Who made a request: the caller's identity and role, shared by routes, services and repositories. */

export type Role = 'user' | 'admin';

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
