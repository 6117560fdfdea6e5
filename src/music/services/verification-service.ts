/**
 * Email verification (docs/accounts.md): a link mailed at sign-up and to the new address of an
 * address change (with a notice to the old one), valid 48 hours, single use. Without outgoing
 * mail, verification is skipped: nothing is sent, an address change applies at once, and
 * nothing waits for a verified address.
 */
import type { AuthContext } from '../auth-context.js';
import {
  accountGone,
  alreadyVerified,
  emailTaken,
  mailNotConfigured,
  sameEmail,
  tokenNotValid,
  verificationRequired,
  wrongCurrentPassword,
} from '../errors/accounts.js';
import type { AccountRepository } from '../repositories/account-repository.js';
import type { MailOutbox } from '../repositories/mail-outbox.js';
import type { UserRecord, UserRepository } from '../repositories/user-repository.js';
import { hashAccountToken, newAccountToken, tokenLink } from './account-tokens.js';
import { normaliseEmail } from './auth-service.js';
import type { MailLimits } from './mail-limits.js';
import { verifyPassword } from './passwords.js';

export const VERIFICATION_TTL_MS = 48 * 3600 * 1000;

/** Outgoing mail as the account services use it; undefined when SMTP is not configured. */
export interface AccountMail {
  outbox: MailOutbox;
  /** Origin of the player the links open (PUBLIC_URL). */
  publicUrl: string;
}

export interface VerificationStatus {
  email: string;
  verified: boolean;
  /** False when the server sends no mail: verification is skipped and nothing requires it. */
  required: boolean;
}

export class VerificationService {
  constructor(
    private readonly users: UserRepository,
    private readonly accounts: AccountRepository,
    private readonly mail: AccountMail | undefined,
    /** Per account and per recipient (mail-limits.ts); every mail a client can cause goes through it. */
    private readonly limits: MailLimits,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  get enabled(): boolean {
    return this.mail !== undefined;
  }

  private async user(userId: string): Promise<UserRecord> {
    const user = await this.users.findById(userId);
    if (!user) throw accountGone();
    return user;
  }

  private async send(mail: AccountMail, user: UserRecord, email: string, change: boolean): Promise<void> {
    const { token, hash } = newAccountToken();
    const now = this.nowMs();
    await this.accounts.issueToken(
      {
        userId: user.id,
        purpose: 'verify_email',
        tokenHash: hash,
        email,
        expiresAt: new Date(now + VERIFICATION_TTL_MS),
      },
      new Date(now),
    );
    await mail.outbox.enqueue({
      kind: 'verify-email',
      to: email,
      handle: user.handle,
      link: tokenLink(mail.publicUrl, 'verify', token),
      ...(change ? { newEmail: email } : {}),
    });
  }

  /** After sign-up: the confirmation link to the new account's address (when mail is on). */
  async signedUp(userId: string): Promise<void> {
    if (!this.mail) return;
    const user = await this.user(userId);
    await this.limits.admit(user.id, [user.email]);
    await this.send(this.mail, user, user.email, false);
  }

  async status(caller: AuthContext): Promise<VerificationStatus> {
    const user = await this.user(caller.userId);
    const at = await this.accounts.verifiedAt(user.id);
    return { email: user.email, verified: at != null, required: this.enabled };
  }

  /** A new link to the account's current address. */
  async resend(caller: AuthContext): Promise<{ sent_to: string }> {
    if (!this.mail) throw mailNotConfigured('Verifying an address');
    const user = await this.user(caller.userId);
    if ((await this.accounts.verifiedAt(user.id)) != null) throw alreadyVerified();
    await this.limits.admit(user.id, [user.email]);
    await this.send(this.mail, user, user.email, false);
    return { sent_to: user.email };
  }

  /** Opens a mailed link: the address it was sent to becomes the account's, verified. */
  async confirm(token: string): Promise<{ email: string; verified: true }> {
    const used = await this.accounts.consumeToken(
      'verify_email',
      hashAccountToken(token),
      new Date(this.nowMs()),
    );
    if (!used) throw tokenNotValid('verification');
    await this.accounts.setEmail(used.userId, used.email, new Date(this.nowMs()));
    return { email: used.email, verified: true };
  }

  /**
   * An address change, with the current password. With mail: a link to the new address and a
   * notice to the old one; the change happens when the link is opened. Without: at once.
   */
  async requestChange(
    caller: AuthContext,
    input: { email: string; current_password: string },
  ): Promise<{ email: string; pending_email?: string }> {
    const user = await this.user(caller.userId);
    if (!(await verifyPassword(input.current_password, user.passwordHash))) throw wrongCurrentPassword();
    const email = normaliseEmail(input.email);
    if (email === user.email) throw sameEmail();
    if (await this.users.findByLogin(email)) throw emailTaken();
    if (!this.mail) {
      await this.accounts.setEmail(user.id, email, null);
      return { email };
    }
    // Charged to the new address and the account; the notice to the owner's own address rides along.
    await this.limits.admit(user.id, [email]);
    await this.send(this.mail, user, email, true);
    await this.mail.outbox.enqueue({
      kind: 'email-change-notice',
      to: user.email,
      handle: user.handle,
      newEmail: email,
    });
    return { email: user.email, pending_email: email };
  }

  /** Publishing publicly (and, later, buying) needs a verified address when mail is on. */
  async assertVerified(caller: AuthContext, action: string): Promise<void> {
    if (!this.mail) return;
    if ((await this.accounts.verifiedAt(caller.userId)) == null) throw verificationRequired(action);
  }
}
