/**
 * pino options shared by every process: JSON lines, one per request, never a payload. The
 * serializers keep only what an operator needs; headers (tokens, cookies) are not logged.
 */
import type { FastifyServerOptions } from 'fastify';

export function loggerOptions(level: string, service: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    base: { service },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
      remove: true,
    },
    serializers: {
      req: (req: {
        method?: string;
        url?: string;
        id?: string;
        ip?: string;
        routeOptions?: { url?: string };
      }) => ({
        id: req.id,
        method: req.method,
        // The path without its query string: queries can carry signatures and tokens.
        path: typeof req.url === 'string' ? req.url.split('?', 1)[0] : undefined,
        remote: req.ip,
      }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
  };
}
