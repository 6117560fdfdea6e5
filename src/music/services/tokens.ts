/**
 * Access tokens: JWT, HS256 with JWT_SECRET, lifetime JWT_EXPIRES_IN, presented as
 * `Authorization: Bearer`. Claims: sub (user id), handle, role, jti, iat, exp. A token is
 * revoked (logout) by its jti until it would have expired anyway.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Role } from '../auth-context.js';

export interface TokenClaims {
  sub: string;
  handle: string;
  role: Role;
  jti: string;
  iat: number;
  exp: number;
}

export interface IssuedToken {
  token: string;
  claims: TokenClaims;
}

const ALGORITHM = 'HS256';

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    readonly lifetime: number,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** `issuedAt` (seconds) defaults to now; a password change issues its token just after the cut-off. */
  async issue(user: { id: string; handle: string; role: Role }, issuedAt?: number): Promise<IssuedToken> {
    const iat = issuedAt ?? this.nowSeconds();
    const claims: TokenClaims = {
      sub: user.id,
      handle: user.handle,
      role: user.role,
      jti: randomUUID(),
      iat,
      exp: iat + this.lifetime,
    };
    const token = await new SignJWT({ handle: claims.handle, role: claims.role })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt(iat)
      .setExpirationTime(claims.exp)
      .sign(this.key);
    return { token, claims };
  }

  /** The claims of a valid token, or a reason it is not valid. */
  async verify(
    token: string,
  ): Promise<{ ok: true; claims: TokenClaims } | { ok: false; reason: 'expired' | 'invalid' }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        currentDate: new Date(this.nowSeconds() * 1000),
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      });
      const { sub, jti, iat, exp, handle, role } = payload;
      if (
        typeof sub !== 'string' ||
        typeof jti !== 'string' ||
        typeof handle !== 'string' ||
        (role !== 'user' && role !== 'admin')
      ) {
        return { ok: false, reason: 'invalid' };
      }
      return { ok: true, claims: { sub, jti, handle, role, iat: iat ?? 0, exp: exp ?? 0 } };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
  }
}
