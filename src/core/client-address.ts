/**
 * The client address used for rate limits: the socket peer, or X-Forwarded-For's right-most
 * entry when (and only when) the peer is a configured trusted proxy. Any other entry of the
 * header is client-controlled and would let a client pick its own rate-limit bucket.
 */
import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { TrustedProxies } from './trusted-proxies.js';

/** `trusted`: the app's one resolved set (trustedProxiesFor), never the raw setting. */
export function clientAddress(request: FastifyRequest, trusted: TrustedProxies): string {
  const peer = normaliseAddress(request.raw.socket.remoteAddress ?? 'unknown');
  if (trusted.empty || !trusted.has(peer)) return peer;
  const header = request.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return peer;
  const last = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .pop();
  return last ? normaliseAddress(last) : peer;
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) and plain IPv4 are the same client. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * Who a limit counts: an IPv4 address, or an IPv6 client's /64 (one subscriber's network: a
 * host picks any of its 2^64 addresses freely, so a bucket per address would be no limit).
 * The one rule for every limit keyed by address (rate-limit scopes, Subsonic failures, mail).
 */
export function limitSubject(address: string): string {
  const bare = address.split('%')[0] ?? address;
  if (!isIPv6(bare)) return address;
  // The URL parser writes the canonical form: lower case, dotted tails as hex, one `::` at most.
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const [left = '', right] = canonical.split('::');
  const head = left === '' ? [] : left.split(':');
  const tail = right === undefined || right === '' ? [] : right.split(':');
  const groups = [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * The scheme the client used: https on a TLS socket; behind a trusted proxy, its
 * X-Forwarded-Proto (right-most entry, as nginx sets it); otherwise http. A client's own header is ignored.
 */
export function requestScheme(request: FastifyRequest, trusted: TrustedProxies): 'http' | 'https' {
  if ((request.raw.socket as { encrypted?: boolean }).encrypted === true) return 'https';
  const peer = normaliseAddress(request.raw.socket.remoteAddress ?? 'unknown');
  if (trusted.empty || !trusted.has(peer)) return 'http';
  const header = request.headers['x-forwarded-proto'];
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const last = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .pop();
  return last === 'https' ? 'https' : 'http';
}
