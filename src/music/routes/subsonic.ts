/**
 * /rest/<endpoint> and /rest/<endpoint>.view, GET and POST (formPost: an
 * application/x-www-form-urlencoded body, or a JSON object, adds to the query's parameters; a
 * body of another type is refused). Errors are Subsonic error documents in the asked format, the
 * body's too; an unknown endpoint answers the spec's code-0 error naming the endpoint.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorClassifier } from '../../core/error-handler.js';
import type { SubsonicAuthenticator } from '../subsonic/auth.js';
import type { SubsonicEndpoints } from '../subsonic/endpoints.js';
import type { Answer } from '../subsonic/endpoints/call.js';
import type { BinaryAnswer, RedirectAnswer } from '../subsonic/song-streams.js';
import { Params } from '../subsonic/params.js';
import {
  FormBody,
  JsonBody,
  OtherBody,
  formBodyParams,
  jsonBodyParams,
  queryParams,
} from '../subsonic/form-params.js';
import { SubsonicError, asSubsonicError, bodyNotForm, unsupportedEndpoint } from '../subsonic/errors.js';
import {
  envelope,
  errorPayload,
  parseFormat,
  render,
  type Format,
  type Payload,
} from '../subsonic/response.js';

export interface SubsonicRouteDeps {
  endpoints: SubsonicEndpoints;
  authenticator: SubsonicAuthenticator;
  serverVersion: string;
  clientAddress: (request: FastifyRequest) => string;
  /** The app's database-error mapping, so a 404 it finds (a row deleted meanwhile) is a Subsonic error too. */
  classifyError: ErrorClassifier;
}

/** Endpoints answered without credentials (the spec requires it of getOpenSubsonicExtensions). */
const PUBLIC_ENDPOINTS = new Set(['getOpenSubsonicExtensions']);

const isBinary = (a: Answer): a is BinaryAnswer => a.kind === 'binary' && 'body' in a;
const isRedirect = (a: Answer): a is RedirectAnswer => a.kind === 'redirect' && 'location' in a;

const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function registerSubsonicRoutes(app: FastifyInstance, deps: SubsonicRouteDeps): void {
  const document = (reply: FastifyReply, format: Format, status: number, payload: Payload, ok: boolean) => {
    const out = render(format, envelope(ok ? 'ok' : 'failed', deps.serverVersion, payload));
    return reply
      .code(status)
      .header('content-type', out.contentType)
      .header('cache-control', 'no-store')
      .send(out.body);
  };

  const send = (reply: FastifyReply, format: Format, answer: Answer) => {
    if (isBinary(answer)) return reply.code(answer.status).headers(answer.headers).send(answer.body);
    if (isRedirect(answer)) return reply.redirect(answer.location, 302);
    return document(reply, format, 200, answer, true);
  };

  const handler = async (request: FastifyRequest<{ Params: { endpoint?: string } }>, reply: FastifyReply) => {
    let format: Format = { kind: 'xml' };
    try {
      const lenient = request.query as Record<string, unknown>;
      // The query's format first, so an error in a parameter is answered in the asked format.
      const asked = parseFormat(textOf(lenient.f), textOf(lenient.callback));
      if (!(asked instanceof SubsonicError)) format = asked;
      if (request.body instanceof OtherBody) throw bodyNotForm(request.body.type);
      const body =
        request.body instanceof FormBody
          ? formBodyParams(request.body)
          : request.body instanceof JsonBody
            ? jsonBodyParams(request.body)
            : undefined;
      const params = new Params(queryParams(request.url), body);
      const f = parseFormat(params.get('f'), params.get('callback'));
      if (f instanceof SubsonicError) throw f;
      format = f;
      const name = (request.params.endpoint ?? '').replace(/\.view$/, '');
      const endpoint = Object.hasOwn(deps.endpoints.handlers, name)
        ? deps.endpoints.handlers[name]
        : undefined;
      if (!endpoint) throw unsupportedEndpoint(name);
      const address = deps.clientAddress(request);
      const user = PUBLIC_ENDPOINTS.has(name)
        ? { userId: '', handle: '', role: 'user' as const }
        : await deps.authenticator.authenticate(params, address);
      const abort = new AbortController();
      // Only an answer cut short is aborted (an abort builds a DOMException, not free on every request).
      request.raw.once('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const answer = await endpoint({
        user,
        params,
        address,
        range: request.headers.range,
        signal: abort.signal,
        viaApiKey: params.has('apiKey'),
      });
      return await send(reply, format, answer);
    } catch (err) {
      const sub = asSubsonicError(err) ?? asSubsonicError(deps.classifyError(err));
      if (!sub) throw err;
      reply.headers(sub.headers);
      return document(reply, format, sub.httpStatus, errorPayload(sub), false);
    }
  };

  void app.register((scope, _options, done) => {
    // Parsers that never fail: a body's faults are answered by the handler, as Subsonic documents.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer' },
      (_r, bytes, done) => done(null, new FormBody(bytes as Buffer)),
    );
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_r, bytes, done) =>
      done(null, new JsonBody(bytes as Buffer)),
    );
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _bytes, done) =>
      done(null, new OtherBody((request.headers['content-type'] ?? '').split(';')[0]!.trim())),
    );
    scope.route({ method: ['GET', 'POST'], url: '/rest/:endpoint', handler });
    // Anything deeper under /rest/ is an endpoint this server does not have, answered in kind.
    scope.route({
      method: ['GET', 'POST'],
      url: '/rest/*',
      handler: (request, reply) =>
        handler(request as FastifyRequest<{ Params: { endpoint?: string } }>, reply),
    });
    done();
  });
}
