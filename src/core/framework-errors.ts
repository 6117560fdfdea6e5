/**
 * Answers fastify and Node make before any route or hook runs: a path that is not valid
 * percent-encoding (`/images/%ff`), a parameter over the router's length, and what Node's HTTP
 * parser refuses (headers over the size limit: 431; a malformed request line: 400; a request
 * not received in time: 408). They carry the service's security headers and are problem+json
 * like every other error. Node hands the parser's refusals over as a bare socket, so that
 * answer is written as raw HTTP/1.1 and the connection closed.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toProblem, type Problem } from './errors.js';
import { PROBLEM_CONTENT_TYPE, sendProblem } from './error-handler.js';
import {
  badPathEncoding,
  headersTooLarge,
  malformedHttp,
  pathSegmentTooLong,
  requestNotReceivedInTime,
} from './errors/http.js';

export type EdgeHeaders = Readonly<Record<string, string>>;

function frameworkProblem(error: FastifyError, request: FastifyRequest): Problem {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return toProblem(badPathEncoding(request.url));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return toProblem(pathSegmentTooLong());
    default:
      return {
        type: 'urn:problem:internal',
        title: 'Internal error',
        status: 500,
        detail: `The server failed to route this request. Quote request id ${request.id} when reporting it.`,
        code: 'internal',
        request_id: request.id,
      };
  }
}

/** fastify's `frameworkErrors` option: routing failures as problems with the edge headers. */
export function frameworkErrorHandler(
  headers: EdgeHeaders,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const problem = frameworkProblem(error, request);
    if (problem.status >= 500) request.log.error({ err: error }, 'routing failed');
    void reply.headers(headers).header('x-request-id', request.id);
    void sendProblem(reply, problem);
  };
}

function clientProblem(err: NodeJS.ErrnoException): Problem {
  switch (err.code ?? '') {
    case 'HPE_HEADER_OVERFLOW':
      return toProblem(headersTooLarge());
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return toProblem(requestNotReceivedInTime());
    default:
      return toProblem(malformedHttp());
  }
}

/** The raw HTTP/1.1 answer to a request Node's parser refused; the connection closes after it. */
export function clientErrorResponse(err: NodeJS.ErrnoException, headers: EdgeHeaders): string {
  const problem = clientProblem(err);
  const body = JSON.stringify(problem);
  const lines = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
    `content-type: ${PROBLEM_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    `date: ${new Date().toUTCString()}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return lines.join('\r\n') + '\r\n\r\n' + body;
}

/** fastify's `clientErrorHandler` option (Node's 'clientError' event). */
export function clientErrorHandler(
  headers: EdgeHeaders,
): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => {
    // A reset connection has nobody to answer (Node's documented pattern).
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) return void socket.destroy();
    // Closed once written: the parser cannot resume on a connection it failed to read.
    socket.write(clientErrorResponse(err, headers), () => socket.destroy());
  };
}
