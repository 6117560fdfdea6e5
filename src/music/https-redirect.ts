/**
 * The plain-HTTP listener when TLS is configured: every request answers 301 to the same path
 * on https (nginx's `return 301 https://$host$request_uri`), with the security headers.
 */
import { createServer, type Server } from 'node:http';

const HOSTNAME = /^[A-Za-z0-9.-]{1,253}$/;

export function httpsLocation(
  hostHeader: string | undefined,
  fallbackHost: string,
  httpsPort: number,
  url: string,
): string {
  // Only the service's own name is reflected: any other Host would make this an open redirect.
  const given = (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase();
  const host = HOSTNAME.test(given) && given === fallbackHost.toLowerCase() ? given : fallbackHost;
  const port = httpsPort === 443 ? '' : `:${httpsPort}`;
  const path = url.startsWith('/') ? url : '/';
  return `https://${host}${port}${path}`;
}

export function createHttpsRedirectServer(options: {
  domain: string;
  httpsPort: number;
  headers: Readonly<Record<string, string>>;
}): Server {
  return createServer((request, response) => {
    const location = httpsLocation(
      request.headers.host,
      options.domain,
      options.httpsPort,
      request.url ?? '/',
    );
    response.writeHead(301, {
      ...options.headers,
      location,
      'content-type': 'text/plain; charset=utf-8',
      connection: 'close',
    });
    response.end(`Moved permanently to ${location}\n`);
  });
}
