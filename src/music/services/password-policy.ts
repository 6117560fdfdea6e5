/**
 * The password policy (NIST SP 800-63B 3.1.1.2): 10-256 characters (the schema), not blank,
 * not one of the 10,000 most common passwords, not the handle or the email. The common list is
 * the frequency-ordered `passwords-common` dictionary of @zxcvbn-ts/language-common (the
 * zxcvbn project's list), of which the first 10,000 are taken.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { weakPassword } from '../errors/auth.js';

export const COMMON_PASSWORD_COUNT = 10_000;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT));
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.normalize('NFKC').toLowerCase());
}

/** What is wrong with a new password (for /password), or undefined when it is acceptable. */
export function passwordProblem(password: string, handle: string, email: string): string | undefined {
  if (password.trim() === '') return 'must not be only whitespace';
  if (isCommonPassword(password))
    return 'is one of the 10,000 most common passwords, which are guessed first; choose another';
  const lowered = password.toLowerCase();
  if (lowered.includes(handle) || lowered === email) return 'must not contain the handle or equal the email';
  return undefined;
}

export function assertPasswordPolicy(password: string, handle: string, email: string): void {
  const problem = passwordProblem(password, handle, email);
  if (problem) throw weakPassword(problem);
}
