/**
 * JSON routes read their body as JSON whatever Content-Type the client declared: none,
 * text/plain, curl -d's application/x-www-form-urlencoded, application/json with or without a
 * charset. Routes take JSON only, so the declared type carries no information, and refusing
 * it (415) only broke copied quick-starts. A body that is not JSON, or not UTF-8 (RFC 8259:
 * JSON between systems is UTF-8; a bad byte is refused, never silently replaced by U+FFFD), is
 * a 400 whose hint says what to send. A route that truly takes another type registers its own parser in its own
 * scope and keeps 415 for the rest.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import secureJson from 'secure-json-parse';
import type { AppError } from './errors.js';
import { describeBodySchema } from './schema-hint.js';
import {
  bodyNotUtf8,
  emptyJsonBody,
  invalidJsonBody,
  multipartNotJson,
  prototypeKeyInBody,
} from './errors/http.js';

const PARSE_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;

function hasBodySchema(request: FastifyRequest): boolean {
  return request.routeOptions.schema?.body !== undefined;
}

/** JSON.parse's own reason (it names the position), prototype-poisoning keys refused. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw emptyJsonBody();
  try {
    return secureJson.parse(text, undefined, PARSE_OPTIONS) as unknown;
  } catch (err) {
    const reason = (err as Error).message;
    if (/forbidden prototype property/.test(reason)) throw prototypeKeyInBody();
    throw invalidJsonBody(reason);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's bytes as UTF-8 text (a leading BOM dropped), or `refusal` (a 400 naming JSON by default). */
export function decodeUtf8Body(bytes: Uint8Array, refusal: () => Error = bodyNotUtf8): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw refusal();
  }
}

export function parseAnyTypeAsJson(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    // Any declared type is read as JSON, but a multipart form is certainly not JSON: say what to send.
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type.startsWith('multipart/')) return done(multipartNotJson(type), undefined);
    // A route without a body schema (logout) also takes `curl -X POST -d ''`.
    if (bytes.length === 0 && !hasBodySchema(request)) return done(null, undefined);
    try {
      done(null, parseJsonText(decodeUtf8Body(bytes)));
    } catch (err) {
      done(err as AppError, undefined);
    }
  });
}

/**
 * The tool routes: the body's bytes as they arrived (decoded if compressed), any content
 * type; the worker that runs the tool parses them (src/eval/execute.ts).
 */
export function takeAnyTypeAsBytes(scope: FastifyInstance, bodyLimit: number): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
}

/**
 * Every route with a body schema and no hint of its own answers its 4xx with a one-line
 * description of the body it takes (the error handler adds `config.problemHint`).
 */
export function registerBodySchemaHints(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const body = route.schema?.body;
    const config = (route.config ?? {}) as { problemHint?: string };
    if (body === undefined || config.problemHint !== undefined) return;
    const methods = Array.isArray(route.method) ? route.method.join('/') : route.method;
    route.config = { ...config, problemHint: `${methods} ${route.url} takes ${describeBodySchema(body)}` };
  });
}
