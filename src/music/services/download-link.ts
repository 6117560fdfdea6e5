/**
 * Signed, expiring links to a track's original for one person:
 *
 *   sig = base64url( HMAC-SHA256( key, "<track id>:<user id>:<expires>" ) )
 *
 * with a key derived from SECURE_LINK_SECRET for this purpose only. The link proves who asked
 * and until when; whether that person may still download (a refund revokes) is checked again
 * when it is used. Signatures are compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type DownloadLinkVerdict = 'valid' | 'forbidden' | 'expired';

export interface DownloadGrant {
  trackId: string;
  userId: string;
  expires: number;
}

const SIG_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES_FORMAT = /^[0-9]{1,12}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function key(secret: string): Buffer {
  return createHmac('sha256', secret).update('music-payments-download-v1').digest();
}

export function downloadSignature(grant: DownloadGrant, secret: string): string {
  return createHmac('sha256', key(secret))
    .update(`${grant.trackId}:${grant.userId}:${grant.expires}`)
    .digest('base64url');
}

export function downloadPath(grant: DownloadGrant, secret: string): string {
  const sig = downloadSignature(grant, secret);
  return `/api/v1/payments/download/${grant.trackId}?user=${grant.userId}&expires=${grant.expires}&sig=${sig}`;
}

export interface DownloadQuery {
  user?: string | undefined;
  expires?: string | undefined;
  sig?: string | undefined;
}

export function verifyDownload(
  trackId: string,
  query: DownloadQuery,
  secret: string,
  nowSeconds: number,
): { verdict: DownloadLinkVerdict; userId?: string } {
  const { user, expires, sig } = query;
  if (user === undefined || !UUID.test(user)) return { verdict: 'forbidden' };
  if (expires === undefined || !EXPIRES_FORMAT.test(expires)) return { verdict: 'forbidden' };
  if (sig === undefined || !SIG_FORMAT.test(sig)) return { verdict: 'forbidden' };
  const expected = Buffer.from(
    downloadSignature({ trackId, userId: user, expires: Number(expires) }, secret),
  );
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { verdict: 'forbidden' };
  return Number(expires) < Math.floor(nowSeconds)
    ? { verdict: 'expired' }
    : { verdict: 'valid', userId: user };
}
