/**
 * Password hashes with scrypt from node:crypto (memory-hard, no native addon to build), run on
 * libuv's thread pool so the event loop keeps serving. Stored as
 * `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url), so parameters can be raised later and
 * old hashes still verify.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const LOG2_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keyLength, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

function optionsFor(log2N: number, r: number, p: number): ScryptOptions {
  // maxmem must exceed 128 * N * r bytes or node refuses.
  return { N: 2 ** log2N, r, p, maxmem: 256 * 2 ** log2N * r };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, KEY_LENGTH, optionsFor(LOG2_N, R, P));
  return ['scrypt', LOG2_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const FORMAT = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const [, log2N, r, p, salt, hash] = m;
  const expected = Buffer.from(hash ?? '', 'base64url');
  const key = await scrypt(
    password,
    Buffer.from(salt ?? '', 'base64url'),
    expected.length,
    optionsFor(Number(log2N), Number(r), Number(p)),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of a random password, verified against when a login names no known user, so an
 * unknown user costs the same time as a wrong password.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(18).toString('base64url'));
  return decoy;
}
