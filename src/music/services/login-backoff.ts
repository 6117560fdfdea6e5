/**
 * Growing waits after failed logins, per account (docs/accounts.md, "Failed logins"): spread over
 * any number of addresses, guesses at one account slow down: five are free, then each attempt
 * doubles the wait before the next try (30 s, 1 min, 2 min, ... at most 15 minutes), refused before
 * any password is hashed. A login name without an account gets the same treatment, so the
 * answers do not tell which accounts exist. The owner is not locked out: a successful login
 * from a device that logged in before, or a password reset, clears the count.
 */
import { retryAfterSeconds } from '../../core/rate-limit/gcra.js';
import { loginBackoff } from '../errors/auth.js';
import type { LoginFailureRepository } from '../repositories/login-failure-repository.js';

export const LOGIN_BACKOFF = { free: 5, baseMs: 30_000, maxMs: 15 * 60 * 1000, forgetMs: 60 * 60 * 1000 };

/** The counted subject: the account, or the login name when no account has it. */
export const loginSubject = (userId: string | undefined, login: string): string => userId ?? `name:${login}`;

export class LoginBackoff {
  constructor(private readonly failures: LoginFailureRepository) {}

  /**
   * Takes an attempt (a 429 while the subject waits). A known device of the account neither
   * waits nor counts: strangers' guesses must not lock the owner's own devices out.
   */
  async attempt(subject: string, knownDevice: boolean): Promise<void> {
    if (knownDevice) return;
    const wait = await this.failures.attempt(subject, LOGIN_BACKOFF);
    if (wait > 0) throw loginBackoff(retryAfterSeconds(wait));
  }

  /** A success (or a password reset) ends the count. */
  async cleared(subject: string): Promise<void> {
    await this.failures.clear(subject);
  }
}
