import { describe, expect, it } from 'vitest';
import { ClientKeyCrypto, sameText, subsonicToken } from './client-key-crypto.js';

const USER = '11111111-1111-4111-8111-111111111111';

describe('client key crypto', () => {
  it('round-trips a key for its owner only, and not under another secret', () => {
    const crypto = new ClientKeyCrypto('a-secret-of-at-least-32-characters-0000');
    const key = ClientKeyCrypto.generate();
    const sealed = crypto.encrypt(key, USER);
    expect(sealed.includes(Buffer.from(key))).toBe(false);
    expect(crypto.decrypt(sealed, USER)).toBe(key);
    expect(crypto.decrypt(sealed, '22222222-2222-4222-8222-222222222222')).toBeUndefined();
    expect(
      new ClientKeyCrypto('another-secret-of-32-characters-00000000').decrypt(sealed, USER),
    ).toBeUndefined();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(crypto.decrypt(tampered, USER)).toBeUndefined();
  });

  it('hashes deterministically per secret', () => {
    const a = new ClientKeyCrypto('a-secret-of-at-least-32-characters-0000');
    expect(a.hash('k')).toBe(a.hash('k'));
    expect(a.hash('k')).not.toBe(new ClientKeyCrypto('another-secret-of-32-characters-00000000').hash('k'));
  });

  it("computes the spec's token example and compares texts", () => {
    expect(subsonicToken('sesame', 'c19b2d')).toBe('26719a1196d2a940705a59634eb18eab');
    expect(sameText('abc', 'abc')).toBe(true);
    expect(sameText('abc', 'abd')).toBe(false);
    expect(sameText('abc', 'abcd')).toBe(false);
  });
});
