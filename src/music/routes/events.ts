/**
 * GET /api/v1/events: the live updates websocket (docs/live-updates.md). The web player is
 * identified by its session cookie, accepted only from this site's Origin (a cross-site page
 * cannot open a socket with it); API clients send their token in the first message, never in
 * the URL. Everything after the upgrade is the hub's (services/live-hub.ts).
 */
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { eventsCrossOrigin, eventsNeedWebsocket } from '../errors/live.js';
import { CLOSE } from '../services/live-protocol.js';
import type { LiveHub } from '../services/live-hub.js';
import { sameOrigin, sessionCookie } from '../session-cookie.js';

/** Client messages are small (a hello with a token): anything larger is refused by the socket. */
const MAX_MESSAGE_BYTES = 8 * 1024;

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i;

/** The token the upgrade request carries: a bearer header, else the same-origin session cookie. */
function upgradeToken(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) return BEARER.exec(authorization.trim())?.[1];
  const cookie = sessionCookie(request);
  if (cookie !== undefined && !sameOrigin(request.headers.origin, request.headers.host, request.scheme))
    throw eventsCrossOrigin();
  return cookie;
}

/** ws hands text frames over as a Buffer (fragments as a list of them). */
function textOf(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/**
 * A frame ws refuses (oversized, invalid UTF-8, bad framing: codes WS_ERR_*) is anyone's to send:
 * a warning without a stack, and ws closes with the fitting code (1009, 1007, 1002) itself.
 * Anything else is ours: an error with its stack, and the socket dropped.
 */
function onSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
    request.log.warn({ ws_error: code, reason: error.message }, 'live updates: client frame refused');
    return;
  }
  request.log.error(error);
  socket.terminate();
}

export function registerEventRoutes(app: FastifyInstance, hub: LiveHub): void {
  void app.register(async (scope) => {
    await scope.register(fastifyWebsocket, {
      options: { maxPayload: MAX_MESSAGE_BYTES },
      errorHandler: (error, socket, request) => onSocketError(error, socket, request),
    });
    scope.addHook('onClose', () => hub.close());
    scope.route({
      method: 'GET',
      url: '/api/v1/events',
      onRequest: (request, _reply, done) => {
        if (request.headers.upgrade?.toLowerCase() !== 'websocket') throw eventsNeedWebsocket();
        upgradeToken(request);
        done();
      },
      handler: () => {
        throw eventsNeedWebsocket();
      },
      wsHandler: (socket, request) => {
        const connection = hub.accept(socket, upgradeToken(request));
        socket.on('message', (data, isBinary) => {
          if (isBinary) connection.end(CLOSE.badMessage, 'messages must be JSON text, not binary');
          else connection.onMessage(textOf(data));
        });
        socket.on('pong', () => {
          connection.alive = true;
        });
        // Invalid UTF-8 or an oversized frame: ws closes the socket itself and reports it here.
        socket.on('error', () => connection.gone());
        socket.on('close', () => connection.gone());
      },
    });
  });
}
