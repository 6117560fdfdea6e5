import { readdir, readFile } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { HASH_THREAD_NICENESS, HashThread } from './hash-thread.js';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { TokenService } from './tokens.js';
import { legacyScryptHash } from '../../../test/helpers/legacy-password.js';

describe('passwords', () => {
  it('hash with Argon2id at OWASP parameters in PHC format, random salt; verify only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
    expect(needsRehash(a)).toBe(false);
  });

  it('verifies PHC strings made by the Argon2 reference implementation', async () => {
    // `echo -n password | argon2 somesalt -id -t 2 -m 16 -p 1 -l 32 -e` (Debian's argon2).
    const reference =
      '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc';
    expect(await verifyPassword('password', reference)).toBe(true);
    expect(await verifyPassword('Password', reference)).toBe(false);
    expect(needsRehash(reference)).toBe(true);
  });

  it('still verifies the earlier scrypt hashes, and marks them for re-hashing', async () => {
    const old = legacyScryptHash('an old passphrase');
    expect(await verifyPassword('an old passphrase', old)).toBe(true);
    expect(await verifyPassword('an old passphrasE', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it('refuses stored strings asking for absurd costs without computing them', async () => {
    const huge =
      '$argon2id$v=19$m=99999999,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc';
    expect(await verifyPassword('password', huge)).toBe(false);
  });

  it('makes the unknown-user decoy cost what a real verify costs: the same algorithm and parameters', async () => {
    const real = await hashPassword('a real passphrase');
    const decoy = await decoyHash();
    // Algorithm, version, memory, passes and parallelism fix Argon2id's work; salt and key length
    // are fixed too. The time itself is measured beside a real verify in bench/passwords.ts (a
    // timed assertion here failed on a loaded machine).
    expect(decoy.split('$').slice(0, 4)).toEqual(real.split('$').slice(0, 4));
    expect(decoy.split('$').map((part) => part.length)).toEqual(real.split('$').map((part) => part.length));
    expect(needsRehash(decoy)).toBe(false);
    // A full verification runs against it and fails, as for a wrong password.
    expect(await verifyPassword('a real passphrase', decoy)).toBe(false);
    expect(await decoyHash()).toBe(decoy);
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

describe('the password hash thread', () => {
  it('runs the hashes at a lower CPU priority than the event loop, which keeps its own', async () => {
    const thread = new HashThread();
    const own = getPriority(0);
    expect(await thread.threadNiceness()).toBe(Math.max(own, HASH_THREAD_NICENESS));
    expect(getPriority(0)).toBe(own);
    // The kernel's view: some thread of this process runs at that niceness (field 19 of its stat).
    const tasks = await readdir('/proc/self/task');
    const nices = await Promise.all(
      tasks.map(async (tid) =>
        Number((await readFile(`/proc/self/task/${tid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[16]),
      ),
    );
    expect(nices).toContain(Math.max(own, HASH_THREAD_NICENESS));
    const key = await thread.hash({
      kind: 'argon2id',
      password: 'p',
      salt: Buffer.alloc(16),
      memory: 64,
      passes: 1,
      parallelism: 1,
      tagLength: 32,
    });
    expect(key).toHaveLength(32);
    await expect(
      thread.hash({
        kind: 'argon2id',
        password: 'p',
        salt: Buffer.alloc(2),
        memory: 64,
        passes: 1,
        parallelism: 1,
        tagLength: 32,
      }),
    ).rejects.toThrow(/nonce|salt/i);
  });
});
