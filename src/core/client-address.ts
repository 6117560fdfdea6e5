/**
 * The client address used for rate limits: the socket peer, or X-Forwarded-For's right-most
 * entry when (and only when) the peer is a configured trusted proxy. Any other entry of the
 * header is client-controlled and would let a client pick its own rate-limit bucket.
 */
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
