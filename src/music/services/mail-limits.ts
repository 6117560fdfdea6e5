/**
 * Limits on the mails a client can make the server send (docs/accounts.md, "Mail limits"): per
 * account and per recipient, in the shared limiter store (Redis), so neither a stolen session
 * nor many accounts can flood a stranger's (or the owner's) mailbox. A mail is charged to both
 * buckets at once or to neither.
 */
import { createHash } from 'node:crypto';
import { retryAfterSeconds, type GcraLimit } from '../../core/rate-limit/gcra.js';
import type { RateLimitStore } from '../../core/rate-limit/store.js';
import { mailLimited } from '../errors/accounts.js';

/** Three mails at once, then one every 10 minutes, per account. */
export const MAIL_ACCOUNT_LIMIT: GcraLimit = { ratePerSecond: 1 / 600, burst: 2 };
/** One mail a minute to any one address, whoever asks. */
export const MAIL_RECIPIENT_LIMIT: GcraLimit = { ratePerSecond: 1 / 60, burst: 0 };

/** Addresses are kept out of the store: the bucket is named by the address's hash. */
const recipientKey = (address: string): string =>
  `mail-to:${createHash('sha256').update(address.trim().toLowerCase()).digest('hex')}`;

export class MailLimits {
  constructor(private readonly store: RateLimitStore) {}

  /** Charges one mail to each recipient and one to the account, or throws a 429 and charges none. */
  async admit(userId: string, recipients: readonly string[]): Promise<void> {
    const result = await this.store.takeAll([
      { key: `mail-account:${userId}`, limit: MAIL_ACCOUNT_LIMIT },
      ...recipients.map((r) => ({ key: recipientKey(r), limit: MAIL_RECIPIENT_LIMIT })),
    ]);
    if (!result.allowed) throw mailLimited(retryAfterSeconds(result.retryAfterMs));
  }
}
