/**
 * Closing the server closes every connection that carries no request, at once, and each other one
 * once its answers are sent (with `connection: close`). Node stops its header deadline when the
 * server closes and closes idle connections only once, so a browser's spare connection (opened
 * ahead, never used) or one whose answer ended after that would hold the close until the client
 * left. Upgraded connections (websockets) are the websocket server's to close.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** A busy connection ended after its last answer gets this long to say goodbye before it is cut. */
const END_GRACE_MS = 1000;

export function registerCloseConnections(app: FastifyInstance, options: { tls: boolean }): void {
  /** Open connections and the answers each is still sending. */
  const open = new Map<Socket, Set<ServerResponse>>();
  let closing = false;

  const end = (socket: Socket): void => {
    socket.end();
    setTimeout(() => socket.destroy(), END_GRACE_MS).unref();
  };

  // Over TLS the requests arrive on the TLS socket: it is tracked from its handshake.
  app.server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    open.set(socket, new Set());
    socket.once('close', () => open.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    const answers = open.get(request.socket);
    if (!answers) return;
    answers.add(response);
    if (closing && !response.headersSent) response.setHeader('connection', 'close');
    response.once('close', () => {
      answers.delete(response);
      if (closing && answers.size === 0 && open.has(request.socket)) end(request.socket);
    });
  });
  // An upgrade (routed like a request by the websocket plugin, never a 'request' event) leaves HTTP;
  // Node sets `upgrade` (untyped) only when an 'upgrade' listener took the request.
  app.addHook('onRequest', (request, _reply, done) => {
    if ((request.raw as IncomingMessage & { upgrade?: boolean }).upgrade === true)
      open.delete(request.raw.socket);
    done();
  });

  app.addHook('preClose', (done) => {
    closing = true;
    for (const [socket, answers] of open) {
      if (answers.size === 0) socket.destroy();
      for (const response of answers) if (!response.headersSent) response.setHeader('connection', 'close');
    }
    done();
  });
}
