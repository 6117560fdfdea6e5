/**
 * pino options shared by every process: one line per request (core/app.ts), never a payload.
 * JSON lines, except in development on a terminal, where pino's own pretty transport prints
 * them for people. The serializers keep only what an operator needs; headers (tokens,
 * cookies) are not logged.
 */
import type { FastifyServerOptions } from 'fastify';

/** Pretty output only for a person watching a development process; JSON everywhere else. */
export function wantsPrettyLogs(nodeEnv: string | undefined, stdoutIsTty: boolean): boolean {
  return stdoutIsTty && (nodeEnv ?? 'development') === 'development';
}

export function loggerOptions(
  level: string,
  service: string,
  nodeEnv: string,
  pretty = wantsPrettyLogs(nodeEnv, process.stdout.isTTY === true),
): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            // One line per entry naming its process (make start interleaves several on one terminal).
            options: {
              colorize: true,
              singleLine: true,
              translateTime: 'SYS:HH:MM:ss.l',
              ignore: 'pid,hostname,service,reqId,req,res,ms',
              messageFormat:
                '{service}: {msg}{if req.method} {req.method} {req.path} {res.status} {ms} ms{end}',
            },
          },
        }
      : {}),
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
