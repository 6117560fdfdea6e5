/**
 * Signed media URLs with nginx `secure_link` semantics:
 *
 *   sig = base64url_nopad( MD5( expires ‖ uri ‖ " " ‖ secret ) )
 *
 * where `uri` is nginx's `$uri` (decoded, normalised path). Verification follows nginx's order:
 * a missing or unparsable `expires`, or a missing or wrong `sig`, is "forbidden" (403); only a
 * right signature is then checked for expiry, "expired" (410) when `expires` has passed.
 * Signatures are compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export type SecureLinkVerdict = 'valid' | 'forbidden' | 'expired';

function digest(expires: string, uri: string, secret: string): Buffer {
  return createHash('md5').update(`${expires}${uri} ${secret}`).digest();
}

export function secureLinkSignature(expires: number | string, uri: string, secret: string): string {
  return digest(String(expires), uri, secret).toString('base64url');
}

export interface SignedQuery {
  sig: string;
  expires: number;
}

export function signUri(uri: string, secret: string, expires: number): SignedQuery {
  return { sig: secureLinkSignature(expires, uri, secret), expires };
}

/** `uri?sig=…&expires=…`, valid for `ttlSeconds` from `nowSeconds`. */
export function signedUrl(uri: string, secret: string, ttlSeconds: number, nowSeconds: number): string {
  const { sig, expires } = signUri(uri, secret, Math.floor(nowSeconds) + ttlSeconds);
  return `${uri}?sig=${sig}&expires=${expires}`;
}

// nginx decodes at most 24 base64 characters (16 bytes, padded); anything else cannot match.
const SIG_FORMAT = /^[A-Za-z0-9_-]{22}(?:==)?$/;
const EXPIRES_FORMAT = /^[0-9]{1,12}$/;

export interface SecureLinkInput {
  uri: string;
  sig: string | undefined;
  expires: string | undefined;
  secret: string;
  nowSeconds: number;
}

export function verifySecureLink(input: SecureLinkInput): SecureLinkVerdict {
  const { sig, expires } = input;
  if (expires === undefined || !EXPIRES_FORMAT.test(expires) || Number(expires) <= 0) return 'forbidden';
  if (sig === undefined || !SIG_FORMAT.test(sig)) return 'forbidden';
  // Compare the text, not decoded bytes: the last of 22 characters carries 4 unused bits, so
  // decoding would accept several spellings of one signature (a changed character must fail).
  const given = Buffer.from(sig.replace(/(?<!=)=+$/, ''), 'latin1');
  const expected = Buffer.from(digest(expires, input.uri, input.secret).toString('base64url'), 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forbidden';
  return Number(expires) < Math.floor(input.nowSeconds) ? 'expired' : 'valid';
}
