/**
 * Client keys: made, listed and revoked by their owner through /api/v1/me/client-keys, and
 * checked by the Subsonic API (apiKey, token t = md5(key + s), or legacy p). The key is
 * shown once; at rest it is AES-256-GCM ciphertext plus an HMAC to find it by.
 */
import type { AuthContext, Role } from '../auth-context.js';
import { isUuid } from '../uuid.js';
import type { UserRepository } from '../repositories/user-repository.js';
import { CLIENT_KEY_CACHE_MS, ClientKeyCache, type UserKeys } from './client-key-cache.js';
import { ClientKeyCrypto, sameText, subsonicToken } from './client-key-crypto.js';
import { clientKeyNotFound, tooManyClientKeys } from './errors.js';
import type { ClientKeyRepository, ClientKeyRow } from '../repositories/client-key-repository.js';

/** A user may hold this many keys (one per device is the expected use). */
export const MAX_CLIENT_KEYS = 50;
const PREFIX_LENGTH = 8;

export interface SubsonicUser {
  userId: string;
  handle: string;
  role: Role;
}

const view = (row: ClientKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

export class ClientKeyService {
  constructor(
    private readonly keys: ClientKeyRepository,
    private readonly users: Pick<UserRepository, 'findById' | 'findByHandle'>,
    private readonly crypto: ClientKeyCrypto,
    private readonly now: () => Date = () => new Date(),
    private readonly cache: ClientKeyCache = new ClientKeyCache(CLIENT_KEY_CACHE_MS, () => now().getTime()),
  ) {}

  async create(auth: AuthContext, name: string) {
    const key = ClientKeyCrypto.generate();
    const row = await this.keys.create(
      {
        userId: auth.userId,
        name,
        prefix: key.slice(0, PREFIX_LENGTH),
        keyHash: this.crypto.hash(key),
        keyCiphertext: this.crypto.encrypt(key, auth.userId),
      },
      MAX_CLIENT_KEYS,
    );
    if (!row) throw tooManyClientKeys(MAX_CLIENT_KEYS);
    // A new key works at once for token authentication too.
    this.cache.forgetUser(auth.userId);
    return { id: row.id, name: row.name, key, prefix: row.prefix, created_at: row.createdAt.toISOString() };
  }

  async list(auth: AuthContext) {
    return { items: (await this.keys.listByUser(auth.userId)).map(view) };
  }

  async revoke(auth: AuthContext, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.keys.delete(auth.userId, id.toLowerCase()))) throw clientKeyNotFound();
    // Revocation takes effect at once in this process (within CLIENT_KEY_CACHE_MS in others).
    this.cache.forgetUser(auth.userId);
  }

  /** Every key of the user, at once (a password change: docs/music-domain.md); how many. */
  async revokeAll(userId: string): Promise<number> {
    const count = await this.keys.deleteAllOfUser(userId);
    this.cache.forgetUser(userId);
    return count;
  }

  /** apiKey authentication: the key's owner, or undefined. */
  async byApiKey(key: string): Promise<SubsonicUser | undefined> {
    const hash = this.crypto.hash(key);
    let found = this.cache.byHash.get(hash, this.cache.now());
    if (!found) {
      const row = await this.keys.findByHash(hash);
      const user = row ? await this.userOf(row.userId) : undefined;
      if (!row || !user) return undefined;
      // The hash matched; the stored key must also decrypt to exactly this key.
      const stored = this.crypto.decrypt(row.keyCiphertext, row.userId);
      if (stored === undefined || !sameText(stored, key)) return undefined;
      found = { row, user };
      // Remembered only once verified: a later hit is the HMAC of this very key.
      this.cache.byHash.set(hash, found, row.userId, this.cache.expiry());
    }
    await this.touch(found.row.id);
    return found.user;
  }

  /** u + t + s: some key of the user whose md5(key + s) is t. */
  async byToken(handle: string, token: string, salt: string): Promise<SubsonicUser | undefined> {
    const want = token.toLowerCase();
    return this.matchKey(handle, (key) => sameText(subsonicToken(key, salt), want));
  }

  /** u + p (plain or enc:hex): one of the user's keys, never the account password. */
  async byPassword(handle: string, password: string): Promise<SubsonicUser | undefined> {
    // Compare digests so the comparison is constant-time whatever the lengths.
    const want = this.crypto.hash(password);
    return this.matchKey(handle, (key) => sameText(this.crypto.hash(key), want));
  }

  private async matchKey(
    handle: string,
    matches: (key: string) => boolean,
  ): Promise<SubsonicUser | undefined> {
    const keys = await this.keysOf(handle.toLowerCase());
    if (!keys) return undefined;
    let found: ClientKeyRow | undefined;
    for (const row of keys.rows) {
      const key = this.crypto.decrypt(row.keyCiphertext, row.userId);
      // Every key is checked (no early exit), so timing does not tell which key matched.
      if (key !== undefined && matches(key) && !found) found = row;
    }
    if (!found) return undefined;
    await this.touch(found.id);
    return keys.user;
  }

  private async keysOf(handle: string): Promise<UserKeys | undefined> {
    const cached = this.cache.byHandle.get(handle, this.cache.now());
    if (cached) return cached;
    const user = await this.users.findByHandle(handle);
    if (!user) return undefined;
    const keys = {
      user: { userId: user.id, handle: user.handle, role: user.role },
      rows: await this.keys.listByUser(user.id),
    };
    this.cache.byHandle.set(handle, keys, user.id, this.cache.expiry());
    return keys;
  }

  private async userOf(userId: string): Promise<SubsonicUser | undefined> {
    const user = await this.users.findById(userId);
    return user ? { userId: user.id, handle: user.handle, role: user.role } : undefined;
  }

  private async touch(keyId: string): Promise<void> {
    if (this.cache.shouldTouch(keyId)) await this.keys.touch(keyId, this.now());
  }
}
