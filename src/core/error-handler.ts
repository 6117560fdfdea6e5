/**
 * The one error handler: every error leaves as application/problem+json (RFC 9457). Bad
 * input is a 4xx with errors[] JSON pointers; a 5xx carries only the request id, never a
 * message or stack from inside.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, invalidInput, toProblem, type FieldError, type Problem } from './errors.js';
import { methodNotAllowed } from './route-methods.js';
import { formatAjvErrors, invalidDetail } from './field-messages.js';
import {
  bodyTooLarge,
  contentLengthMismatch,
  emptyJsonBody,
  frameworkClientError,
  invalidJsonBody,
  invalidJsonOrPrototypeKey,
  noRoute,
  prototypeKeyInBody,
  sendJson,
} from './errors/http.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export function sendProblem(
  reply: FastifyReply,
  problem: Problem,
  headers: Record<string, string> = {},
): FastifyReply {
  for (const [k, v] of Object.entries(headers)) void reply.header(k, v);
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
}

/**
 * Maps fastify's own errors (body parsing, schema validation, limits) onto the catalogue.
 * `request` lets validation messages quote the value that failed (ajv reports where, not what).
 */
export function toAppError(error: FastifyError | Error, request?: FastifyRequest): AppError | undefined {
  if (error instanceof AppError) return error;
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (e.validation) {
    const context = e.validationContext ?? 'body';
    const root = request ? validatedPart(request, context) : undefined;
    const errors: FieldError[] = formatAjvErrors(
      e.validation as Parameters<typeof formatAjvErrors>[0],
      root,
    ).map((fe) => ({
      path: context === 'body' ? fe.path : `${context}:${fe.path}`,
      message: fe.message,
    }));
    return invalidInput(invalidDetail(errors), errors);
  }
  if (/forbidden prototype property/.test(e.message)) {
    return prototypeKeyInBody();
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(request?.routeOptions.bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendJson();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return emptyJsonBody();
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      // Fastify's default parser drops the reason; a prototype key is the one valid-JSON cause.
      return invalidJsonOrPrototypeKey();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return contentLengthMismatch();
    default:
      break;
  }
  if (e instanceof SyntaxError && e.statusCode === 400) {
    return invalidJsonBody(e.message);
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const code =
      e.statusCode === 404
        ? 'not_found'
        : e.statusCode === 413
          ? 'payload_too_large'
          : e.statusCode === 415
            ? 'unsupported_media_type'
            : 'invalid_input';
    return frameworkClientError(code, e.message);
  }
  return undefined;
}

function validatedPart(request: FastifyRequest, context: string): unknown {
  switch (context) {
    case 'body':
      return request.body;
    case 'querystring':
      return request.query;
    case 'params':
      return request.params;
    case 'headers':
      return request.headers;
    default:
      return undefined;
  }
}

/** A service's mapping of its dependencies' errors onto the catalogue (undefined: not mine). */
export type ErrorClassifier = (error: unknown) => AppError | undefined;

export function registerErrorHandler(app: FastifyInstance, classify?: ErrorClassifier): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error, request) ?? classify?.(error);
    if (appError && appError.status < 500) {
      // Routes may name where a client finds a valid request (the tool routes do).
      const hint = (request.routeOptions.config as { problemHint?: string } | undefined)?.problemHint;
      return sendProblem(reply, { ...toProblem(appError), ...(hint ? { hint } : {}) }, appError.headers);
    }
    if (appError) {
      request.log.warn({ code: appError.code }, appError.message);
      return sendProblem(reply, { ...toProblem(appError), request_id: request.id }, appError.headers);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, {
      type: 'urn:problem:internal',
      title: 'Internal error',
      status: 500,
      detail: `The server failed to answer this request. Quote request id ${request.id} when reporting it.`,
      code: 'internal',
      request_id: request.id,
    });
  });
}

/** The answer to a request no route claims: 405 with Allow when other methods have routes, else 404. */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const notAllowed = methodNotAllowed(request);
  if (notAllowed) return sendProblem(reply, toProblem(notAllowed), notAllowed.headers);
  return sendProblem(reply, toProblem(noRoute(request.method, request.url.split('?', 1)[0]!)));
}

export function registerProblemNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler(sendRouteNotFound);
}
