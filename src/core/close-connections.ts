/**
 * Closing the server closes every connection that carries no request, at once, and each other one
 * as soon as its last answer is sent. Node stops its header deadline when the server closes and
 * closes idle connections only once, so a browser's spare connection (opened ahead, never used)
 * or one whose answer ended after that would hold the close until the client left.
 * Upgraded connections (websockets) are the websocket server's to close.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function registerCloseConnections(app: FastifyInstance, options: { tls: boolean }): void {
  /** Open connections and the requests each carries. */
  const open = new Map<Socket, number>();
  let closing = false;

  // Over TLS the requests arrive on the TLS socket: it is tracked from its handshake.
  app.server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    open.set(socket, 0);
    socket.once('close', () => open.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }, response: NodeJS.EventEmitter) => {
    const socket = request.socket;
    if (!open.has(socket)) return;
    open.set(socket, (open.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (open.get(socket) ?? 1) - 1;
      if (!open.has(socket)) return;
      open.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });
  app.server.on('upgrade', (request: { socket: Socket }) => open.delete(request.socket));

  app.addHook('preClose', (done) => {
    closing = true;
    for (const [socket, requests] of open) if (requests === 0) socket.destroy();
    done();
  });
}
