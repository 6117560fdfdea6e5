/**
 * Vitest global set-up: one per test run. Gives the run its own identity (used for Redis key
 * prefixes and database names) so concurrent runs never see each other.
 */
import { randomBytes } from 'node:crypto';

export default function setup(): void {
  process.env.TEST_RUN_ID ??= `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}
