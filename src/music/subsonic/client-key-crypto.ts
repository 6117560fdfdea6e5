/**
 * Client keys at rest: AES-256-GCM under a key derived from CLIENT_KEY_SECRET (the owner's id
 * is the additional data, so a ciphertext copied to another account does not decrypt), and an
 * HMAC-SHA-256 of the key to find it by for apiKey authentication without decrypting rows.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class ClientKeyCrypto {
  // KeyObjects, imported once: a raw Buffer key is re-imported per HMAC (docs/subsonic.md, "Authentication").
  private readonly encryptionKey: KeyObject;
  private readonly hashKey: KeyObject;

  constructor(secret: string) {
    // Two independent keys from one secret: one never leaks anything about the other.
    this.encryptionKey = createSecretKey(
      createHash('sha256').update('client-key-encryption\0').update(secret).digest(),
    );
    this.hashKey = createSecretKey(
      createHash('sha256').update('client-key-lookup\0').update(secret).digest(),
    );
  }

  /** A new key: 32 random bytes, base64url, with a recognisable prefix. */
  static generate(): string {
    return `ssk_${randomBytes(32).toString('base64url')}`;
  }

  hash(key: string): string {
    return createHmac('sha256', this.hashKey).update(key, 'utf8').digest('hex');
  }

  encrypt(key: string, userId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(userId, 'utf8'));
    const body = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** undefined when the ciphertext does not authenticate (another secret, another owner). */
  decrypt(sealed: Uint8Array, userId: string): string | undefined {
    const buf = Buffer.from(sealed);
    if (buf.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, buf.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(userId, 'utf8'));
      decipher.setAuthTag(buf.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(buf.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }
}

/** Constant-time equality of two strings (their lengths are not secret: hex digests or keys). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Subsonic's token: md5(password + salt), lower-case hex. */
export function subsonicToken(key: string, salt: string): string {
  return createHash('md5')
    .update(key + salt, 'utf8')
    .digest('hex');
}
