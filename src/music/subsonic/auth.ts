/**
 * Subsonic authentication with client keys only (the account password is never accepted):
 * `apiKey` (OpenSubsonic), `u` + `t` + `s` (t = md5(key + s)) or `u` + `p` (plain or
 * `enc:` hex). Mixing mechanisms is error 43. Failed attempts spend the auth rate-limit scope
 * of the client's address and a failure allowance of the named user; both are checked BEFORE
 * the credentials, so once either is spent even the right key is refused (429) and a guess
 * costs no key decryption. Successful calls spend a per-user allowance of their own.
 */
import type { GcraLimit } from '../../core/rate-limit/gcra.js';
import { retryAfterSeconds } from '../../core/rate-limit/gcra.js';
import type { RateLimitStore } from '../../core/rate-limit/store.js';
import { limitKey } from '../../core/rate-limit/plugin.js';
import type { ClientKeyService, SubsonicUser } from './client-key-service.js';
import type { Params } from './params.js';
import {
  apiKeyWithPassword,
  invalidApiKey,
  missingParameter,
  passwordWithToken,
  tooManyRequests,
  wrongCredentials,
  ERROR_CODES,
  SubsonicError,
} from './errors.js';

/** Per user: a client filling an album grid fetches hundreds of covers at once (docs/subsonic.md). */
export const SUBSONIC_USER_LIMIT: GcraLimit = { ratePerSecond: 50, burst: 500 };

/**
 * Failed logins per user name, from any address: guessing spread over many addresses stops too.
 * Looser than the per-address scope, since a stranger's failures also lock the owner's clients out.
 */
export const SUBSONIC_USER_FAILURE_LIMIT: GcraLimit = { ratePerSecond: 10 / 60, burst: 10 };

export interface SubsonicLimits {
  store: RateLimitStore;
  /** The seed's auth scope (5/min, burst 3), shared with /api/v1/auth/. */
  authFailures: GcraLimit;
  /** Failed logins per user name (SUBSONIC_USER_FAILURE_LIMIT). */
  userFailures: GcraLimit;
  perUser: GcraLimit;
}

const wrong = wrongCredentials;

function decodePassword(p: string): string | undefined {
  if (!p.startsWith('enc:')) return p;
  const hex = p.slice(4);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  return Buffer.from(hex, 'hex').toString('utf8');
}

export class SubsonicAuthenticator {
  constructor(
    private readonly keys: ClientKeyService,
    private readonly limits: SubsonicLimits | undefined,
  ) {}

  async authenticate(params: Params, address: string): Promise<SubsonicUser> {
    const failureKeys = this.failureKeys(params, address);
    // The limit first: a spent allowance refuses the attempt before any credential is checked.
    for (const { key, limit, what } of failureKeys) await this.refuseIfSpent(key, limit, what);
    let user: SubsonicUser | undefined;
    try {
      user = await this.check(params);
    } catch (err) {
      if (
        err instanceof SubsonicError &&
        (err.code === ERROR_CODES.wrongCredentials || err.code === ERROR_CODES.invalidApiKey)
      )
        for (const { key, limit, what } of failureKeys) await this.spend(key, limit, what);
      throw err;
    }
    await this.spend(
      `subsonic-user:${user.userId}`,
      this.limits?.perUser,
      'Too many requests for this account',
    );
    return user;
  }

  private async check(params: Params): Promise<SubsonicUser> {
    const apiKey = params.get('apiKey');
    const u = params.get('u');
    const p = params.get('p');
    const t = params.get('t');
    const s = params.get('s');
    if (apiKey !== undefined) {
      if (u !== undefined || p !== undefined || t !== undefined || s !== undefined)
        throw apiKeyWithPassword();
      const user = apiKey === '' || apiKey.length > 2048 ? undefined : await this.keys.byApiKey(apiKey);
      if (!user) throw invalidApiKey();
      return user;
    }
    if (u === undefined || u === '') throw missingParameter('u (or apiKey)');
    if (t !== undefined || s !== undefined) {
      if (p !== undefined) throw passwordWithToken();
      if (!t) throw missingParameter('t');
      if (!s) throw missingParameter('s');
      const user =
        /^[0-9a-fA-F]{32}$/.test(t) && u.length <= 64 ? await this.keys.byToken(u, t, s) : undefined;
      if (!user) throw wrong();
      return user;
    }
    if (p === undefined || p === '') throw missingParameter('p (or t and s)');
    const password = decodePassword(p);
    const user =
      password === undefined || u.length > 64 ? undefined : await this.keys.byPassword(u, password);
    if (!user) throw wrong();
    return user;
  }

  /** The failure allowances this attempt answers to: its address's and, when named, its user's. */
  private failureKeys(
    params: Params,
    address: string,
  ): { key: string; limit: GcraLimit | undefined; what: string }[] {
    const keys = [
      {
        key: limitKey({ name: 'auth' }, address),
        limit: this.limits?.authFailures,
        what: 'Too many failed authentications from this address',
      },
    ];
    const u = params.get('u');
    if (u !== undefined && u !== '' && u.length <= 64)
      keys.push({
        key: `subsonic-auth-user:${u.toLowerCase()}`,
        limit: this.limits?.userFailures,
        what: 'Too many failed authentications for this user',
      });
    return keys;
  }

  /**
   * 429 when the allowance has no request left, without spending any: takeUpTo of none changes
   * no state and says how long until one request is due (gcraUpTo).
   */
  private async refuseIfSpent(key: string, limit: GcraLimit | undefined, what: string): Promise<void> {
    if (!this.limits || !limit) return;
    let grant;
    try {
      grant = await this.limits.store.takeUpTo(key, limit, 0);
    } catch {
      return;
    }
    if (grant.retryAfterMs > 0) throw tooMany(what, grant.retryAfterMs);
  }

  /** A refused take is a 429 with Retry-After; a limiter outage admits the call (as the core limiter does). */
  private async spend(key: string, limit: GcraLimit | undefined, what: string): Promise<void> {
    if (!this.limits || !limit) return;
    let result;
    try {
      result = await this.limits.store.take(key, limit);
    } catch {
      return;
    }
    if (result.allowed) return;
    throw tooMany(what, result.retryAfterMs);
  }
}

function tooMany(what: string, retryAfterMs: number): SubsonicError {
  return tooManyRequests(what, retryAfterSeconds(retryAfterMs));
}
