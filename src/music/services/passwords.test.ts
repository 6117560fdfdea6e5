import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';
import { TokenService } from './tokens.js';

describe('passwords', () => {
  it('hash with a random salt and verify only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });
});

describe('TokenService', () => {
  it('issues HS256 tokens it verifies, and reports expiry', async () => {
    let now = 1_000_000;
    const tokens = new TokenService('x'.repeat(32), 60, () => now);
    const { token, claims } = await tokens.issue({ id: 'u1', handle: 'alice', role: 'user' });
    expect(claims).toMatchObject({ sub: 'u1', handle: 'alice', role: 'user', iat: now, exp: now + 60 });
    expect(await tokens.verify(token)).toEqual({ ok: true, claims });
    now += 61;
    expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
    expect(await new TokenService('y'.repeat(32), 60, () => now - 61).verify(token)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});
