/**
 * Identity: sign-up, login, logout and bearer-token authentication. Login failures are one
 * message whatever was wrong (unknown user or wrong password), and an unknown user costs a
 * password verification too, so neither the answer nor its timing tells them apart.
 */
import { AppError } from '../../core/errors.js';
import type { TokenRevocationRepository } from '../repositories/token-revocation-repository.js';
import type { UserRecord, UserRepository } from '../repositories/user-repository.js';
import { assertPasswordPolicy } from './password-policy.js';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { TokenClaims, TokenService } from './tokens.js';

export interface SignupInput {
  handle: string;
  email: string;
  password: string;
  display_name?: string;
}

export interface LoginInput {
  login: string;
  password: string;
}

export interface PrivateUser {
  id: string;
  handle: string;
  email: string;
  display_name: string;
  role: 'user' | 'admin';
  created_at: string;
}

export interface SessionToken {
  token: string;
  token_type: 'Bearer';
  expires_at: string;
}

export const LOGIN_FAILED = 'The login or the password is wrong.';

export function normaliseHandle(handle: string): string {
  return handle.trim().toLowerCase();
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function privateUser(user: UserRecord): PrivateUser {
  return {
    id: user.id,
    handle: user.handle,
    email: user.email,
    display_name: user.displayName,
    role: user.role,
    created_at: user.createdAt.toISOString(),
  };
}

const unauthorized = (detail: string): AppError =>
  new AppError('unauthorized', detail, { headers: { 'www-authenticate': 'Bearer realm="music"' } });

export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly revocations: TokenRevocationRepository,
    private readonly tokens: TokenService,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  private async session(user: UserRecord): Promise<SessionToken> {
    const issued = await this.tokens.issue(user);
    return {
      token: issued.token,
      token_type: 'Bearer',
      expires_at: new Date(issued.claims.exp * 1000).toISOString(),
    };
  }

  async signup(input: SignupInput): Promise<{ user: PrivateUser } & SessionToken> {
    const handle = normaliseHandle(input.handle);
    const email = normaliseEmail(input.email);
    assertPasswordPolicy(input.password, handle, email);
    const user = await this.users.create({
      handle,
      email,
      passwordHash: await hashPassword(input.password),
      displayName: input.display_name?.trim() || handle,
    });
    return { user: privateUser(user), ...(await this.session(user)) };
  }

  async login(input: LoginInput): Promise<SessionToken> {
    const login = input.login.includes('@') ? normaliseEmail(input.login) : normaliseHandle(input.login);
    const user = await this.users.findByLogin(login);
    const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !ok) throw unauthorized(LOGIN_FAILED);
    // The password is known only now: an outdated hash (scrypt, older parameters) is replaced.
    if (needsRehash(user.passwordHash))
      await this.users.setPasswordHash(user.id, await hashPassword(input.password));
    return this.session(user);
  }

  /** The claims of a presented bearer token, or a 401. */
  async authenticate(authorization: string | undefined): Promise<TokenClaims & { token: string }> {
    const m = authorization ? /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim()) : null;
    if (!m?.[1])
      throw unauthorized('Send an access token: "Authorization: Bearer <token>" (from /api/v1/auth/login).');
    const token = m[1];
    const result = await this.tokens.verify(token);
    if (!result.ok) {
      throw unauthorized(
        result.reason === 'expired'
          ? 'The access token has expired; log in again.'
          : 'The access token is not valid.',
      );
    }
    if (await this.revocations.isRevoked(result.claims.jti))
      throw unauthorized('The access token was revoked (logged out); log in again.');
    return { ...result.claims, token };
  }

  async logout(authorization: string | undefined): Promise<void> {
    const claims = await this.authenticate(authorization);
    await this.revocations.revoke(claims.jti, claims.exp - this.nowSeconds());
  }

  async me(authorization: string | undefined): Promise<PrivateUser> {
    const claims = await this.authenticate(authorization);
    const user = await this.users.findById(claims.sub);
    if (!user) throw unauthorized('The account of this token no longer exists.');
    return privateUser(user);
  }
}
