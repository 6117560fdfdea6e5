/** The seed's security headers, for tests of music-api's edge. */
import { expect } from 'vitest';

/** The seed's values, written out here rather than imported, so a changed constant fails. */
export const SEED_HEADERS: Record<string, string> = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-xss-protection': '1; mode=block',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; media-src 'self' blob:; connect-src 'self' wss://music.example.org",
};

export function expectSeedHeaders(headers: Record<string, unknown>, what: string): void {
  for (const [name, value] of Object.entries(SEED_HEADERS))
    expect(headers[name], `${what}: ${name}`).toBe(value);
}
