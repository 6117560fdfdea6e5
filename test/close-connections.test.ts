/**
 * Closing the app: a connection that never sent a request and a keep-alive one between requests
 * are closed at once; a request in flight is answered, then its connection closes; close resolves.
 */
import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import fastifyWebsocket from '@fastify/websocket';
import { WebSocket } from 'ws';
import { buildBaseApp } from '../src/core/app.js';
import { createHttpMetrics } from '../src/core/metrics.js';

async function socketTo(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

/** Sends one request and resolves with the answer's head once its whole body (`ok`) arrived. */
async function ask(socket: Socket, path: string, headers = ''): Promise<string> {
  let text = '';
  socket.setEncoding('utf8');
  const answered = new Promise<string>((resolve) => {
    const onData = (chunk: string): void => {
      text += chunk;
      if (/\r\n\r\n[\s\S]*ok$/.test(text)) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
  });
  socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n${headers}\r\n`);
  return answered;
}

const baseApp = () =>
  buildBaseApp({ logger: false, bodyLimit: 1024, metrics: createHttpMetrics({ defaultMetrics: false }) });

describe('closing the app closes its connections', () => {
  it('spare and idle connections at once, a busy one after its answer, and close resolves', async () => {
    const app = baseApp();
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    app.get('/fast', () => 'ok');
    app.get('/slow', async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      return 'ok';
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const spare = await socketTo(port);
    const idle = await socketTo(port);
    expect(await ask(idle, '/fast')).toMatch(/^HTTP\/1\.1 200/);
    const busy = await socketTo(port);
    const slowAnswer = ask(busy, '/slow');
    await slowStarted;

    const spareClosed = once(spare, 'close');
    const idleClosed = once(idle, 'close');
    const busyClosed = once(busy, 'close');
    const closed = app.close();
    await Promise.all([spareClosed, idleClosed]);
    expect(busy.destroyed).toBe(false);

    release();
    const answer = await slowAnswer;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.toLowerCase()).toContain('connection: close');
    await busyClosed;
    await closed;
  });

  it('a request asking for an upgrade nobody offers (h2c) is answered, and close resolves', async () => {
    const app = baseApp();
    app.get('/', () => 'ok');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const socket = await socketTo((app.server.address() as AddressInfo).port);
    expect(await ask(socket, '/', 'connection: upgrade\r\nupgrade: h2c\r\n')).toMatch(/^HTTP\/1\.1 200/);
    const socketClosed = once(socket, 'close');
    await app.close();
    await socketClosed;
  });

  it('an open websocket is closed by the websocket server (a close frame), not cut', async () => {
    const app = baseApp();
    await app.register(fastifyWebsocket);
    app.get('/ws', { websocket: true }, () => undefined);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await once(client, 'open');
    const closedBy = once(client, 'close');
    await app.close();
    const [code] = (await closedBy) as [number];
    expect(code).not.toBe(1006);
  });
});
