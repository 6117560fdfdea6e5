/**
 * Password reset by mail (docs/accounts.md). Asking answers the same whether or not the address
 * has an account, and the work for a real one happens after the answer, so neither the answer
 * nor its timing tells. The mailed token is single use, valid 30 minutes, stored as a hash.
 * Setting the password ends every session and every Subsonic client key, and the owner is told.
 */
import { mailNotConfigured, tokenNotValid } from '../errors/accounts.js';
import type { AccountRepository } from '../repositories/account-repository.js';
import type { UserRecord, UserRepository } from '../repositories/user-repository.js';
import { hashAccountToken, newAccountToken, tokenLink } from './account-tokens.js';
import { normaliseEmail } from './auth-service.js';
import { assertPasswordPolicy } from './password-policy.js';
import { hashPassword } from './passwords.js';
import type { AccountMail } from './verification-service.js';

export const RESET_TTL_MS = 30 * 60 * 1000;
/** One reset mail per account per minute, however many addresses ask: no mail bombing a victim. */
export const RESET_MAIL_INTERVAL_MS = 60 * 1000;

export const RESET_REQUESTED =
  'If an account has this address, a link to choose a new password is on its way (valid 30 minutes). Check the spam folder too.';

export interface PasswordSetResult {
  ended_sessions: number;
  revoked_client_keys: number;
}

export interface ResetDependencies {
  users: UserRepository;
  accounts: AccountRepository;
  mail: AccountMail | undefined;
  /** Ends every session of the user (SessionService.endAll): how many were listed. */
  endSessions: (userId: string) => Promise<number>;
  /** Revokes the user's Subsonic client keys: how many. */
  revokeClientKeys: (userId: string) => Promise<number>;
  /** Ends the account's wait after failed logins (login-backoff.ts): the link proves the owner. */
  clearLoginFailures: (userId: string) => Promise<void>;
  /** Where a failure of the work done after the answer is reported (never the token). */
  reportFailure: (err: unknown) => void;
  nowMs?: () => number;
}

export class PasswordResetService {
  private readonly nowMs: () => number;
  /** The work started after answers, so a test (or a shutdown) can wait for it. */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: ResetDependencies) {
    this.nowMs = deps.nowMs ?? (() => Date.now());
  }

  get enabled(): boolean {
    return this.deps.mail !== undefined;
  }

  /** Answers at once; for an existing account, the link is issued and mailed afterwards. */
  async request(input: { email: string }): Promise<{ message: string }> {
    const mail = this.deps.mail;
    if (!mail) throw mailNotConfigured('Resetting a password by mail');
    const user = await this.deps.users.findByLogin(normaliseEmail(input.email));
    if (user) {
      const work = this.sendLink(mail, user)
        .catch((err: unknown) => this.deps.reportFailure(err))
        .finally(() => this.pending.delete(work));
      this.pending.add(work);
    }
    return { message: RESET_REQUESTED };
  }

  /** Resolves when the mails asked for so far are enqueued (or failed). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private async sendLink(mail: AccountMail, user: UserRecord): Promise<void> {
    const now = this.nowMs();
    const { token, hash } = newAccountToken();
    const issued = await this.deps.accounts.issueToken(
      {
        userId: user.id,
        purpose: 'password_reset',
        tokenHash: hash,
        email: user.email,
        expiresAt: new Date(now + RESET_TTL_MS),
      },
      new Date(now),
      RESET_MAIL_INTERVAL_MS,
    );
    if (!issued) return;
    await mail.outbox.enqueue({
      kind: 'password-reset',
      to: user.email,
      handle: user.handle,
      link: tokenLink(mail.publicUrl, 'reset-password', token),
    });
  }

  /** Uses a mailed token: the password is checked first, so a refused one does not spend the link. */
  async confirm(input: { token: string; password: string }): Promise<PasswordSetResult> {
    const hash = hashAccountToken(input.token);
    const now = new Date(this.nowMs());
    const found = await this.deps.accounts.findToken('password_reset', hash, now);
    const user = found && (await this.deps.users.findById(found.userId));
    if (!user) throw tokenNotValid('reset');
    assertPasswordPolicy(input.password, user.handle, user.email);
    const passwordHash = await hashPassword(input.password);
    if (!(await this.deps.accounts.consumeToken('password_reset', hash, now))) throw tokenNotValid('reset');
    return this.setPassword(user, passwordHash);
  }

  /** An operator's reset (`cli admin reset-password`): the same consequences, without a token. */
  async setByOperator(handle: string, password: string): Promise<PasswordSetResult | undefined> {
    const user = await this.deps.users.findByHandle(handle);
    if (!user) return undefined;
    assertPasswordPolicy(password, user.handle, user.email);
    return this.setPassword(user, await hashPassword(password));
  }

  private async setPassword(user: UserRecord, passwordHash: string): Promise<PasswordSetResult> {
    await this.deps.accounts.setPasswordHash(user.id, passwordHash);
    await this.deps.accounts.voidTokens(user.id, 'password_reset', new Date(this.nowMs()));
    await this.deps.clearLoginFailures(user.id);
    const endedSessions = await this.deps.endSessions(user.id);
    const revokedClientKeys = await this.deps.revokeClientKeys(user.id);
    await this.deps.mail?.outbox.enqueue({ kind: 'password-changed', to: user.email, handle: user.handle });
    return { ended_sessions: endedSessions, revoked_client_keys: revokedClientKeys };
  }
}
