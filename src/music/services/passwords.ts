/**
 * Password hashes: Argon2id from node:crypto (Node >= 24.7) at OWASP's first recommendation
 * (m = 19 MiB, t = 2, p = 1), stored in the standard PHC string format
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` (unpadded base64), run on a thread of their
 * own at a lower priority than the event loop (hash-thread.ts), through a bounded queue
 * (hash-queue.ts). Hashes of the earlier format (`scrypt$<log2 N>$<r>$<p>$...`) still verify; `needsRehash` tells the login to replace them (and any Argon2id hash made with
 * other parameters) with a current one.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { passwordHashes } from './hash-queue.js';
import { passwordHashThread } from './hash-thread.js';

/** OWASP Password Storage Cheat Sheet, Argon2id's first configuration. */
export const ARGON2_PARAMS = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const ARGON2_VERSION = 19;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

interface Argon2Cost {
  memory: number;
  passes: number;
  parallelism: number;
  tagLength: number;
}

function argon2(password: string, salt: Buffer, cost: Argon2Cost): Promise<Buffer> {
  return passwordHashes.run(() =>
    passwordHashThread.hash({ kind: 'argon2id', password: password.normalize('NFKC'), salt, ...cost }),
  );
}

const b64 = (buf: Buffer): string => buf.toString('base64').replace(/(?<!=)=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const { memory, passes, parallelism } = ARGON2_PARAMS;
  const key = await argon2(password, salt, { memory, passes, parallelism, tagLength: KEY_LENGTH });
  return `$argon2id$v=${ARGON2_VERSION}$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(key)}`;
}

// Bounds keep a corrupt or hostile stored string from asking for gigabytes or hours.
const PHC =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{6,})$/;
const SCRYPT = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

async function verifyArgon2(password: string, m: RegExpExecArray): Promise<boolean> {
  const [, memory, passes, parallelism, salt, hash] = m;
  const expected = Buffer.from(hash ?? '', 'base64');
  const key = await argon2(password, Buffer.from(salt ?? '', 'base64'), {
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expected.length,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

function scrypt(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: { N: number; r: number; p: number; maxmem: number },
): Promise<Buffer> {
  return passwordHashes.run(() =>
    passwordHashThread.hash({
      kind: 'scrypt',
      password: password.normalize('NFKC'),
      salt,
      keyLength,
      ...options,
    }),
  );
}

/** The earlier format, verified so its accounts can log in once more and be re-hashed. */
async function verifyScrypt(password: string, m: RegExpExecArray): Promise<boolean> {
  const [, log2N, r, p, salt, hash] = m;
  const expected = Buffer.from(hash ?? '', 'base64url');
  // maxmem must exceed 128 * N * r bytes or node refuses.
  const N = 2 ** Number(log2N);
  const options = { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) };
  const key = await scrypt(password, Buffer.from(salt ?? '', 'base64url'), expected.length, options);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const argon = PHC.exec(stored);
  if (argon) return verifyArgon2(password, argon);
  const old = SCRYPT.exec(stored);
  if (old) return verifyScrypt(password, old);
  return false;
}

/** Whether a stored hash is of an older format or other parameters than new hashes get. */
export function needsRehash(stored: string): boolean {
  const m = PHC.exec(stored);
  if (!m) return true;
  const { memory, passes, parallelism } = ARGON2_PARAMS;
  return (
    Number(m[1]) !== memory ||
    Number(m[2]) !== passes ||
    Number(m[3]) !== parallelism ||
    Buffer.from(m[5] ?? '', 'base64').length !== KEY_LENGTH
  );
}

/**
 * A current hash of a random password, verified against when a login names no known user, so
 * an unknown user costs the same time as a wrong password (same algorithm and parameters).
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  // A refusal (the hash queue full) is not kept: the next login makes the decoy.
  decoy ??= hashPassword(randomBytes(18).toString('base64url')).catch((err: unknown) => {
    decoy = undefined;
    throw err;
  });
  return decoy;
}
