/** Password hashes of the earlier format, as accounts created before Argon2id have them. */
import { randomBytes, scryptSync } from 'node:crypto';

/** `scrypt$15$8$1$<salt>$<hash>` (base64url), the format src/music/services/passwords.ts wrote before. */
export function legacyScryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 2 ** 26 });
  return ['scrypt', 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}
