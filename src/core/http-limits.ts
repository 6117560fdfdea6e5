/**
 * Time and connection bounds of the HTTP servers (both services, settings shared by name):
 * headers, whole-body and idle-body deadlines, keep-alive, connections per client address.
 * Upload routes (route config `bodyTransfer: 'min-rate'`) trade the whole-body deadline for a
 * minimum average transfer rate, so a large part on a slow link still completes.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { normaliseAddress } from './client-address.js';
import { PROBLEM_CONTENT_TYPE, sendProblem } from './error-handler.js';
import { toProblem } from './errors.js';
import { requestTimeout, tooManyConnections as tooManyConnectionsError } from './errors/http.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'min-rate': the body is bounded by HTTP_BODY_MIN_BYTES_PER_SECOND rather than HTTP_REQUEST_TIMEOUT_MS. */
    bodyTransfer?: 'deadline' | 'min-rate';
  }
}

export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  keepAliveTimeoutMs: number;
  maxRequestsPerConnection: number;
  connectionsPerAddress: number;
}

/** The defaults, for processes without these settings (the worker's health port, tests). */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  headersTimeoutMs: 10000,
  requestTimeoutMs: 60000,
  bodyIdleTimeoutMs: 10000,
  bodyMinBytesPerSecond: 16384,
  // Above the 60 s nginx keeps idle upstream connections, so nginx never reuses one being closed.
  keepAliveTimeoutMs: 72000,
  maxRequestsPerConnection: 1000,
  connectionsPerAddress: 64,
});
const D = DEFAULT_HTTP_LIMITS;

export const HttpLimitsEnv = {
  HTTP_HEADERS_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: D.headersTimeoutMs,
    description: "time to receive a request's headers, from its first byte (408 beyond)",
  }),
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: D.requestTimeoutMs,
    description:
      'time to receive a whole request body (408 beyond); upload routes use the minimum rate instead',
  }),
  HTTP_BODY_IDLE_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: D.bodyIdleTimeoutMs,
    description: 'longest pause while a request body arrives (408 beyond)',
  }),
  HTTP_BODY_MIN_BYTES_PER_SECOND: Type.Integer({
    minimum: 1,
    default: D.bodyMinBytesPerSecond,
    description:
      'upload routes: lowest average body rate, after a first HTTP_BODY_IDLE_TIMEOUT_MS (408 below)',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: D.keepAliveTimeoutMs,
    description: 'idle keep-alive connection lifetime',
  }),
  HTTP_MAX_REQUESTS_PER_CONNECTION: Type.Integer({
    minimum: 1,
    default: D.maxRequestsPerConnection,
    description: 'requests one keep-alive connection may carry before it is closed',
  }),
  HTTP_CONNECTIONS_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: D.connectionsPerAddress,
    description: 'open connections one client address may hold (trusted proxies exempt); more are refused',
  }),
};

type HttpLimitsVars = Static<ReturnType<typeof Type.Object<typeof HttpLimitsEnv>>>;

export function httpLimitsFromEnv(e: HttpLimitsVars): HttpLimits {
  return {
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    bodyIdleTimeoutMs: e.HTTP_BODY_IDLE_TIMEOUT_MS,
    bodyMinBytesPerSecond: e.HTTP_BODY_MIN_BYTES_PER_SECOND,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxRequestsPerConnection: e.HTTP_MAX_REQUESTS_PER_CONNECTION,
    connectionsPerAddress: e.HTTP_CONNECTIONS_PER_ADDRESS,
  };
}

/** Node's server options for the headers deadline (checked every `connectionsCheckingInterval`). */
export function serverTimeoutOptions(limits: HttpLimits): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // The whole-request deadline is per route (below): Node's would cut long uploads.
    requestTimeout: 0,
    connectionsCheckingInterval: Math.min(1000, Math.ceil(limits.headersTimeoutMs / 4)),
  };
}

interface BodyWatch {
  request: FastifyRequest;
  reply: FastifyReply;
  socket: Socket;
  minRate: boolean;
  startedAt: number;
  startBytes: number;
  lastBytes: number;
  lastProgressAt: number;
  lastTickAt: number;
  /** Time the server itself was not reading (unread body bytes buffered): not the client's. */
  pausedMs: number;
}

function expectsBody(request: FastifyRequest): boolean {
  const raw = request.raw;
  if (raw.complete) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Watches every request whose body is still arriving: one shared timer samples each socket's
 * byte count, and a body that pauses too long, takes too long, or (upload routes) arrives too
 * slowly is answered 408 and its connection closed.
 */
export function registerBodyDeadlines(app: FastifyInstance, limits: HttpLimits): void {
  const watched = new Set<BodyWatch>();
  let timer: NodeJS.Timeout | undefined;
  const tickMs = Math.max(25, Math.min(1000, Math.floor(limits.bodyIdleTimeoutMs / 4)));

  const tick = (): void => {
    const now = Date.now();
    for (const w of watched) {
      const raw = w.request.raw;
      // The whole body is in (read or not): nothing left to wait for.
      if (raw.complete) {
        watched.delete(w);
        continue;
      }
      const bytes = w.socket.bytesRead;
      if (raw.readableLength > 0) {
        // Back-pressure: the app has not read what arrived, so the socket is not read either.
        w.pausedMs += now - w.lastTickAt;
        w.lastProgressAt = now;
      }
      w.lastTickAt = now;
      if (bytes !== w.lastBytes) {
        w.lastBytes = bytes;
        w.lastProgressAt = now;
      }
      const elapsed = now - w.startedAt - w.pausedMs;
      let reason: string | undefined;
      if (now - w.lastProgressAt > limits.bodyIdleTimeoutMs) {
        reason = `no part of the request body arrived for ${limits.bodyIdleTimeoutMs} ms`;
      } else if (!w.minRate && elapsed > limits.requestTimeoutMs) {
        reason = `the request body was not received within ${limits.requestTimeoutMs} ms`;
      } else if (
        w.minRate &&
        elapsed > limits.bodyIdleTimeoutMs &&
        ((bytes - w.startBytes) * 1000) / elapsed < limits.bodyMinBytesPerSecond
      ) {
        reason = `the request body arrived slower than ${limits.bodyMinBytesPerSecond} bytes per second`;
      }
      if (reason) timeOut(w, reason);
    }
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const timeOut = (w: BodyWatch, reason: string): void => {
    watched.delete(w);
    w.request.log.info({ reason }, 'request body timed out');
    if (w.reply.sent || w.reply.raw.headersSent) {
      w.socket.destroy();
      return;
    }
    // Closed once answered: the rest of the body is never read.
    w.reply.raw.once('finish', () => w.socket.destroy());
    void w.reply.header('connection', 'close');
    void sendProblem(w.reply, toProblem(requestTimeout(reason)));
  };

  app.addHook('onRequest', (request, reply, done) => {
    if (expectsBody(request)) {
      const socket = request.raw.socket;
      const now = Date.now();
      const w: BodyWatch = {
        request,
        reply,
        socket,
        minRate: request.routeOptions.config.bodyTransfer === 'min-rate',
        startedAt: now,
        startBytes: socket.bytesRead,
        lastBytes: socket.bytesRead,
        lastProgressAt: now,
        lastTickAt: now,
        pausedMs: 0,
      };
      watched.add(w);
      const stop = (): void => void watched.delete(w);
      request.raw.once('end', stop);
      reply.raw.once('close', stop);
      if (!timer) {
        timer = setInterval(tick, tickMs);
        timer.unref();
      }
    }
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    if (timer) clearInterval(timer);
    watched.clear();
    done();
  });
}

/**
 * At most `connectionsPerAddress` open connections per client address; a connection past it
 * is answered 429 (plain HTTP) or closed (TLS, before the handshake) at once. Trusted proxies
 * carry many clients and are exempt.
 */
export function registerConnectionCap(
  app: FastifyInstance,
  limits: HttpLimits,
  options: { tls: boolean; exempt: (address: string) => boolean; edgeHeaders: Record<string, string> },
): void {
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = normaliseAddress(socket.remoteAddress ?? '');
    if (options.exempt(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.connectionsPerAddress) {
      if (options.tls) socket.destroy();
      else socket.end(tooManyConnections(limits.connectionsPerAddress, options.edgeHeaders));
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

function tooManyConnections(limit: number, headers: Record<string, string>): string {
  const body = JSON.stringify(toProblem(tooManyConnectionsError(limit)));
  return (
    [
      'HTTP/1.1 429 Too Many Requests',
      `content-type: ${PROBLEM_CONTENT_TYPE}`,
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
      'retry-after: 1',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ].join('\r\n') +
    '\r\n\r\n' +
    body
  );
}
