/**
 * Short-lived in-process memory of client-key lookups, so a player loading an album grid does
 * not cost two or three queries per request for authentication. Entries live `ttlMs` (a key
 * revoked through another API process stops working within that time); revoking or creating
 * a key in this process forgets its owner's entries at once. Ciphertexts are kept, never keys.
 */
import type { Role } from '../auth-context.js';
import type { ClientKeyRow } from '../repositories/client-key-repository.js';

/** The caller a key stands for (client-key-service's SubsonicUser). */
interface KeyOwner {
  userId: string;
  handle: string;
  role: Role;
}

/** How long a lookup is trusted (docs/subsonic.md, "Performance"). */
export const CLIENT_KEY_CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  userId: string;
  expiresAt: number;
}

/** A user and the key rows (ciphertext) their Subsonic password/token may match. */
export interface UserKeys {
  user: KeyOwner;
  rows: ClientKeyRow[];
}

class TtlMap<T> {
  private readonly entries = new Map<string, Entry<T>>();

  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: T, userId: string, expiresAt: number): void {
    // Bounded: a flood of distinct keys empties the map instead of growing it.
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, userId, expiresAt });
  }

  forgetUser(userId: string): void {
    for (const [key, entry] of this.entries) if (entry.userId === userId) this.entries.delete(key);
  }
}

export class ClientKeyCache {
  /** By the key's lookup hash: the row (still checked against its ciphertext) and its user. */
  readonly byHash = new TtlMap<{ row: ClientKeyRow; user: KeyOwner }>();
  /** By handle: for token and legacy password authentication. */
  readonly byHandle = new TtlMap<UserKeys>();
  /** When each key's last use was last written: at most one write a minute a key. */
  private readonly touched = new Map<string, number>();

  constructor(
    readonly ttlMs: number = CLIENT_KEY_CACHE_MS,
    private readonly nowMs: () => number = Date.now,
  ) {}

  now(): number {
    return this.nowMs();
  }

  expiry(): number {
    return this.nowMs() + this.ttlMs;
  }

  /** true when the key's last use should be written now. */
  shouldTouch(keyId: string): boolean {
    const now = this.nowMs();
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < 60_000) return false;
    if (this.touched.size >= MAX_ENTRIES) this.touched.clear();
    this.touched.set(keyId, now);
    return true;
  }

  forgetUser(userId: string): void {
    this.byHash.forgetUser(userId);
    this.byHandle.forgetUser(userId);
  }
}
