import { describe, expect, it } from 'vitest';
import { ClientKeyCache } from './client-key-cache.js';
import type { ClientKeyRow } from '../repositories/client-key-repository.js';

const user = { userId: 'u1', handle: 'alice', role: 'user' as const };
const row: ClientKeyRow = {
  id: 'k1',
  userId: 'u1',
  name: 'phone',
  prefix: 'ssk_abcd',
  keyHash: 'h'.repeat(64),
  keyCiphertext: new Uint8Array([1, 2, 3]),
  createdAt: new Date(0),
  lastUsedAt: null,
};

describe('ClientKeyCache', () => {
  it('remembers a lookup for its time to live only', () => {
    let now = 1_000;
    const cache = new ClientKeyCache(5_000, () => now);
    cache.byHash.set('hash', { row, user }, 'u1', cache.expiry());
    now += 4_999;
    expect(cache.byHash.get('hash', cache.now())?.user).toEqual(user);
    now += 1;
    expect(cache.byHash.get('hash', cache.now())).toBeUndefined();
  });

  it("forgets every entry of a user at once (a key created or revoked), others' stay", () => {
    const cache = new ClientKeyCache(5_000, () => 0);
    cache.byHash.set('a', { row, user }, 'u1', cache.expiry());
    cache.byHandle.set('alice', { user, rows: [row] }, 'u1', cache.expiry());
    cache.byHandle.set('bob', { user: { ...user, userId: 'u2' }, rows: [] }, 'u2', cache.expiry());
    cache.forgetUser('u1');
    expect(cache.byHash.get('a', 0)).toBeUndefined();
    expect(cache.byHandle.get('alice', 0)).toBeUndefined();
    expect(cache.byHandle.get('bob', 0)?.user.userId).toBe('u2');
  });

  it('asks for a last-use write at most once a minute a key', () => {
    let now = 0;
    const cache = new ClientKeyCache(5_000, () => now);
    expect(cache.shouldTouch('k1')).toBe(true);
    now = 59_999;
    expect(cache.shouldTouch('k1')).toBe(false);
    expect(cache.shouldTouch('k2')).toBe(true);
    now = 60_000;
    expect(cache.shouldTouch('k1')).toBe(true);
  });
});
