/**
 * The security headers of the music seed, with the seed's values, on every response
 * (success, error, media, redirect). Set in an onRequest hook so that they are already on the
 * reply when a later hook (rate limit, auth) or the error handler answers.
 */
import type { FastifyInstance } from 'fastify';

/**
 * Content-Security-Policy as the seed words it: same origin by default; inline scripts and
 * styles allowed; images from https and data; media from blob; websocket connections to the
 * own domain.
 */
export function contentSecurityPolicy(domain: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data:",
    "media-src 'self' blob:",
    `connect-src 'self' wss://${domain}`,
  ].join('; ');
}

export function securityHeaders(domain: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-xss-protection': '1; mode=block',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'content-security-policy': contentSecurityPolicy(domain),
  });
}

export function registerSecurityHeaders(app: FastifyInstance, domain: string): void {
  const headers = securityHeaders(domain);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
