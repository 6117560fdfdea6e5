/**
 * The sessions a user can see and end (docs/accounts.md). A session is one access token: it is
 * recorded when issued at sign-up or login and, for any other token (a password change's fresh
 * one, or one older than this list), when first used. "Last seen" is written at most once a
 * minute per session and process. Ending a session revokes its token (the revocation list) and
 * removes its row.
 */
import { cutText } from '../../core/text-length.js';
import type { AuthContext } from '../auth-context.js';
import { sessionNotFound } from '../errors/accounts.js';
import type { TokenRevocationRepository } from '../repositories/token-revocation-repository.js';
import type { SessionRecord, SessionRepository } from '../repositories/session-repository.js';
import { listenerHash } from './analytics-service.js';
import { deviceName } from './device-name.js';
import type { TokenClaims } from './tokens.js';

/** Who is calling, as far as the sessions list shows it. */
export interface ClientInfo {
  userAgent: string | undefined;
  address: string;
}

export interface SessionView {
  id: string;
  device: string;
  /** The address as analytics stores it: sha256(IP_HASH_SALT, day, address), never the address. */
  address_hash: string;
  current: boolean;
  signed_in_at: string;
  last_seen_at: string;
  expires_at: string;
}

const TOUCH_EVERY_MS = 60_000;
const REMEMBERED_TOUCHES = 10_000;

export class SessionService {
  /** jti -> when this process last wrote "last seen" (bounded; oldest forgotten first). */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly sessions: SessionRepository,
    private readonly revocations: TokenRevocationRepository,
    private readonly ipHashSalt: string,
    /** Seconds a token lives (JWT_EXPIRES_IN): revocations are kept that long. */
    private readonly tokenLifetime: number,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  private addressHash(address: string): string {
    const now = this.nowMs();
    return listenerHash(this.ipHashSalt, new Date(now - (now % 86_400_000)), address);
  }

  private row(
    token: { jti: string; userId: string; iat: number; exp: number },
    client: ClientInfo,
  ): SessionRecord {
    const now = new Date(this.nowMs());
    return {
      jti: token.jti,
      userId: token.userId,
      device: cutText(deviceName(client.userAgent), 200),
      addressHash: this.addressHash(client.address),
      issuedAt: new Date(token.iat * 1000),
      expiresAt: new Date(token.exp * 1000),
      lastSeenAt: now,
    };
  }

  /** A token was just issued to this client (sign-up, login). */
  async started(claims: TokenClaims, client: ClientInfo): Promise<void> {
    await this.sessions.record(this.row({ ...claims, userId: claims.sub }, client));
    this.remember(claims.jti);
  }

  /** An authenticated request: recorded if unknown, "last seen" refreshed at most once a minute. */
  async seen(auth: AuthContext, client: ClientInfo): Promise<void> {
    const last = this.touched.get(auth.jti);
    if (last !== undefined && this.nowMs() - last < TOUCH_EVERY_MS) return;
    this.remember(auth.jti);
    const iat = auth.exp - this.tokenLifetime;
    await this.sessions.record(this.row({ jti: auth.jti, userId: auth.userId, iat, exp: auth.exp }, client));
  }

  private remember(jti: string): void {
    this.touched.delete(jti);
    this.touched.set(jti, this.nowMs());
    if (this.touched.size > REMEMBERED_TOUCHES) {
      const oldest = this.touched.keys().next().value;
      if (oldest !== undefined) this.touched.delete(oldest);
    }
  }

  /** Logout revoked the token: its row goes too. */
  async loggedOut(auth: AuthContext | undefined): Promise<void> {
    if (auth) await this.sessions.remove(auth.userId, auth.jti);
  }

  /** The caller's live sessions (revoked ones are dropped on the way), most recently seen first. */
  async list(caller: AuthContext): Promise<SessionView[]> {
    const rows = await this.live(caller.userId);
    return rows.map((r) => ({
      id: r.jti,
      device: r.device,
      address_hash: r.addressHash,
      current: r.jti === caller.jti,
      signed_in_at: r.issuedAt.toISOString(),
      last_seen_at: r.lastSeenAt.toISOString(),
      expires_at: r.expiresAt.toISOString(),
    }));
  }

  private async live(userId: string): Promise<SessionRecord[]> {
    const rows = await this.sessions.list(userId, new Date(this.nowMs()));
    const live: SessionRecord[] = [];
    for (const r of rows) {
      const iat = Math.floor(r.issuedAt.getTime() / 1000);
      if (await this.revocations.isRevoked({ jti: r.jti, userId, iat }))
        await this.sessions.remove(userId, r.jti);
      else live.push(r);
    }
    return live;
  }

  /** Ends one of the caller's sessions; true when it was the caller's own. */
  async end(caller: AuthContext, id: string): Promise<boolean> {
    const row = (await this.sessions.list(caller.userId, new Date(this.nowMs()))).find((r) => r.jti === id);
    if (!row) throw sessionNotFound();
    await this.revocations.revoke(row.jti, row.expiresAt.getTime() / 1000 - this.nowMs() / 1000);
    await this.sessions.remove(caller.userId, row.jti);
    return row.jti === caller.jti;
  }

  /**
   * Ends every session of the user: each known token by its id, and every token issued before
   * this second by the user's cut-off (tokens of this very second are the ones listed).
   */
  async endAll(userId: string): Promise<number> {
    const nowSeconds = this.nowMs() / 1000;
    const rows = await this.sessions.list(userId, new Date(this.nowMs()));
    for (const r of rows) await this.revocations.revoke(r.jti, r.expiresAt.getTime() / 1000 - nowSeconds);
    await this.revocations.revokeIssuedBefore(userId, Math.floor(nowSeconds), this.tokenLifetime);
    await this.sessions.removeAll(userId);
    return rows.length;
  }
}
