/**
 * Identity: sign-up, login, logout and bearer-token authentication. Login failures are one
 * message whatever was wrong (unknown user or wrong password), and an unknown user costs a
 * password verification too, so neither the answer nor its timing tells them apart.
 */
import { imageUrl } from './track-list-item.js';
import type { AuthContext } from '../auth-context.js';
import type { TokenRevocationRepository } from '../repositories/token-revocation-repository.js';
import type { UserRecord, UserRepository } from '../repositories/user-repository.js';
import { passwordHashes } from './hash-queue.js';
import type { KnownDevices } from './known-device.js';
import { loginSubject, type LoginBackoff } from './login-backoff.js';
import { assertPasswordPolicy } from './password-policy.js';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { TokenService } from './tokens.js';
import { currentPasswordWrong, passwordHoldsHandleOrEmail, unauthorized } from '../errors/auth.js';

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

export interface UpdateMeInput {
  display_name?: string;
  bio?: string;
  current_password?: string;
  new_password?: string;
}

export interface PrivateUser {
  id: string;
  handle: string;
  email: string;
  display_name: string;
  bio: string;
  picture_url: string | null;
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
    bio: user.bio,
    picture_url: imageUrl(user.pictureKey),
    role: user.role,
    created_at: user.createdAt.toISOString(),
  };
}

export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly revocations: TokenRevocationRepository,
    private readonly tokens: TokenService,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
    /** Called after a password change with the user's id: revokes the Subsonic client keys, says how many. */
    private readonly revokeClientKeys: (userId: string) => Promise<number> = () => Promise.resolve(0),
    /** Failed logins per account and the devices that may skip their wait. */
    private readonly guard?: { backoff: LoginBackoff; devices: KnownDevices },
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

  /** Seconds a session lasts (the session cookie's Max-Age). */
  get sessionLifetime(): number {
    return this.tokens.lifetime;
  }

  /**
   * The answer has the sign-up's shape: the user and the session, and `device`, the value that
   * marks this device as known to the account (the route sets it as a cookie, never in the body).
   */
  async login(
    input: LoginInput,
    device?: string,
  ): Promise<{ user: PrivateUser } & SessionToken & { device?: string }> {
    // A full hash queue answers before any database or Redis work is spent on the attempt.
    passwordHashes.assertRoom();
    const login = input.login.includes('@') ? normaliseEmail(input.login) : normaliseHandle(input.login);
    const user = await this.users.findByLogin(login);
    const subject = loginSubject(user?.id, login);
    const known = user !== undefined && this.guard?.devices.recognises(user.id, device) === true;
    // Refused before any hash is computed: a guess during the wait costs the server nothing.
    await this.guard?.backoff.attempt(subject, known);
    const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !ok) throw unauthorized(LOGIN_FAILED);
    await this.guard?.backoff.cleared(subject);
    // The password is known only now: an outdated hash (scrypt, older parameters) is replaced.
    if (needsRehash(user.passwordHash))
      await this.users.update(user.id, { passwordHash: await hashPassword(input.password) });
    const issued = this.guard?.devices.issue(user.id);
    return { user: privateUser(user), ...(await this.session(user)), ...(issued ? { device: issued } : {}) };
  }

  /** Who presented this bearer token, or a 401 (missing, invalid, expired or revoked). */
  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    // RFC 6750 allows one or more spaces after the scheme.
    const m = authorization ? /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim()) : null;
    if (!m?.[1])
      throw unauthorized(
        'Log in: send an access token as "Authorization: Bearer <token>" (from /api/v1/auth/login), or use the web player\'s session.',
      );
    return this.authenticateToken(m[1]);
  }

  /** Who holds this token (from a bearer header or the session cookie), or a 401. */
  async authenticateToken(token: string): Promise<AuthContext> {
    const result = await this.tokens.verify(token);
    if (!result.ok) {
      throw unauthorized(
        result.reason === 'expired'
          ? 'The access token has expired; log in again.'
          : 'The access token is not valid.',
      );
    }
    const { sub, handle, role, jti, iat, exp } = result.claims;
    if (await this.revocations.isRevoked({ jti, userId: sub, iat }))
      throw unauthorized('The access token was revoked (logged out or password changed); log in again.');
    return { userId: sub, handle, role, jti, exp };
  }

  async logout(auth: AuthContext): Promise<void> {
    await this.revocations.revoke(auth.jti, auth.exp - this.nowSeconds());
  }

  async me(auth: AuthContext): Promise<PrivateUser> {
    const user = await this.users.findById(auth.userId);
    if (!user) throw unauthorized('The account of this token no longer exists.');
    return privateUser(user);
  }

  /**
   * Display name and/or password. A new password needs the current one and revokes every
   * token issued before this second and every Subsonic client key; the answer carries a fresh
   * token and how many client keys were revoked.
   */
  async updateMe(
    auth: AuthContext,
    input: UpdateMeInput,
  ): Promise<{ user: PrivateUser; revoked_client_keys?: number } & Partial<SessionToken>> {
    const user = await this.users.findById(auth.userId);
    if (!user) throw unauthorized('The account of this token no longer exists.');
    let passwordHash: string | undefined;
    if (input.new_password !== undefined) {
      if (
        input.current_password === undefined ||
        !(await verifyPassword(input.current_password, user.passwordHash))
      ) {
        throw currentPasswordWrong();
      }
      const lowered = input.new_password.toLowerCase();
      if (lowered.includes(user.handle) || lowered === user.email) {
        throw passwordHoldsHandleOrEmail();
      }
      passwordHash = await hashPassword(input.new_password);
    }
    const updated = await this.users.update(user.id, {
      ...(input.display_name !== undefined ? { displayName: input.display_name.trim() } : {}),
      ...(input.bio !== undefined ? { bio: input.bio.trim() } : {}),
      ...(passwordHash !== undefined ? { passwordHash } : {}),
    });
    if (passwordHash === undefined) return { user: privateUser(updated) };
    // Tokens carry whole seconds: the fresh one is issued one second after the cut-off.
    const now = this.nowSeconds();
    await this.revocations.revokeIssuedBefore(user.id, now + 1, this.tokens.lifetime);
    // Client keys are credentials too: a password changed after a compromise must end them all.
    const revokedClientKeys = await this.revokeClientKeys(user.id);
    const issued = await this.tokens.issue(updated, now + 1);
    return {
      user: privateUser(updated),
      revoked_client_keys: revokedClientKeys,
      token: issued.token,
      token_type: 'Bearer',
      expires_at: new Date(issued.claims.exp * 1000).toISOString(),
    };
  }
}
