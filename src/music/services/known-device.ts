/**
 * "This device logged in to this account before" (docs/accounts.md, "Failed logins"): a value
 * handed out in a cookie at each successful login, a random nonce and its HMAC with the
 * account's id, so it is checked without storage and is worth nothing for another account. A
 * device that has it logs in even while strangers' guesses keep the account waiting.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export class KnownDevices {
  constructor(private readonly secret: string) {}

  private mac(userId: string, nonce: string): Buffer {
    return createHmac('sha256', this.secret).update(`known-device\0${userId}\0${nonce}`).digest();
  }

  issue(userId: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.mac(userId, nonce).toString('base64url')}`;
  }

  recognises(userId: string, value: string | undefined): boolean {
    const [nonce, mac, extra] = (value ?? '').split('.');
    if (!nonce || !mac || extra !== undefined) return false;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(userId, nonce);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
