/**
 * Nothing a client sends holds a connection open (issue 32, item 3), over raw sockets on both
 * services: trickled headers and bodies, a stalled body, idle keep-alive, connections per
 * address; an upload part is bounded by a minimum rate rather than a total time.
 */
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp } from './helpers/eval-app.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { initUpload, signupUser, type TestUser } from './helpers/music-domain.js';

const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '800',
  HTTP_REQUEST_TIMEOUT_MS: '1500',
  HTTP_BODY_IDLE_TIMEOUT_MS: '800',
  HTTP_BODY_MIN_BYTES_PER_SECOND: '2000',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
  HTTP_CONNECTIONS_PER_ADDRESS: '4',
};

interface Conn {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
  /** Resolves with the text received so far once it holds `text`. */
  received(text: string): Promise<string>;
}

function open(port: number): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const waiters: { text: string; resolve: (s: string) => void }[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      for (const w of waiters.filter((x) => data.includes(x.text))) w.resolve(data);
    });
    socket.on('error', () => {}); // a reset is a close too
    const closed = new Promise<string>((done) => socket.on('close', () => done(data)));
    socket.once('connect', () =>
      resolve({
        socket,
        closed,
        received: (text) =>
          data.includes(text)
            ? Promise.resolve(data)
            : new Promise((r) => waiters.push({ text, resolve: r })),
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes `chunks` one every `everyMs` while the socket is open. */
function trickle(conn: Conn, chunks: string[], everyMs: number): () => void {
  let i = 0;
  const timer = setInterval(() => {
    if (i >= chunks.length || conn.socket.destroyed) return clearInterval(timer);
    conn.socket.write(chunks[i++]!);
  }, everyMs);
  return () => clearInterval(timer);
}

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

function limitSuite(name: string, setup: () => Promise<{ app: FastifyInstance; post: string; get: string }>) {
  describe(`${name}: time and connection bounds`, () => {
    let app: FastifyInstance;
    let port: number;
    let post: string;
    let get: string;
    beforeAll(async () => {
      ({ app, post, get } = await setup());
      port = portOf(app);
    });

    it('answers trickled headers with 408 and closes', async () => {
      const c = await open(port);
      c.socket.write(`GET ${get} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      const stop = trickle(
        c,
        Array.from({ length: 200 }, (_, i) => `x-${i}: y\r\n`),
        50,
      );
      const text = await c.closed;
      stop();
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
    });

    it('answers a body trickled past the request timeout with 408 and closes', async () => {
      const c = await open(port);
      c.socket.write(
        `POST ${post} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n`,
      );
      const stop = trickle(
        c,
        Array.from({ length: 400 }, () => ' '),
        100,
      ); // 40 s at this pace
      const text = await c.closed;
      stop();
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toMatch(/not received within 1500 ms/);
      expect(text.toLowerCase()).toContain('connection: close');
    });

    it('answers a body that stops arriving with 408', async () => {
      const c = await open(port);
      c.socket.write(
        `POST ${post} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":`,
      );
      const text = await c.closed;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toMatch(/no part of the request body arrived for 800 ms/);
    });

    it('closes an idle keep-alive connection', async () => {
      const c = await open(port);
      c.socket.write(`GET ${get} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await c.received('\r\n\r\n');
      const text = await c.closed;
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    });

    it('refuses connections past the per-address cap with 429, and accepts again once they close', async () => {
      const held = await Promise.all(Array.from({ length: 4 }, () => open(port)));
      const extra = await open(port);
      const refused = await extra.closed;
      expect(refused).toMatch(/^HTTP\/1\.1 429 /);
      expect(refused).toMatch(/already holds 4 open connections/);
      for (const c of held) c.socket.destroy();
      await Promise.all(held.map((c) => c.closed));
      // The server counts a connection gone when its own socket closes; retry until it has.
      let text = '';
      for (let attempt = 0; attempt < 50 && !text.startsWith('HTTP/1.1 200'); attempt++) {
        const c = await open(port);
        c.socket.write(`GET ${get} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        text = await c.closed;
      }
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
    });
  });
}

let evalApp: FastifyInstance;
let music: MusicTestApp;
afterAll(async () => {
  await evalApp?.close();
  await music?.close();
});

limitSuite('eval', async () => {
  evalApp = await makeEvalApp(LIMITS);
  await evalApp.listen({ port: 0, host: '127.0.0.1' });
  return { app: evalApp, post: '/api/gate', get: '/api/health' };
});

limitSuite('music', async () => {
  music = await createMusicTestApp({ ...LIMITS, RATE_LIMITS: 'off' });
  await music.app.listen({ port: 0, host: '127.0.0.1' });
  return { app: music.app, post: '/api/v1/auth/login', get: '/api/v1/health' };
});

describe('music upload parts: a minimum rate, not a total time', () => {
  let user: TestUser;
  let port: number;
  beforeAll(async () => {
    music ??= await createMusicTestApp({ ...LIMITS, RATE_LIMITS: 'off' });
    if (!music.app.server.listening) await music.app.listen({ port: 0, host: '127.0.0.1' });
    port = portOf(music.app);
    user = await signupUser(music.app, 'slowpart');
  });

  const putHead = (uploadId: string, length: number) =>
    `PUT /api/v1/upload/multipart/${uploadId}/parts/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    `authorization: ${user.headers.authorization}\r\ncontent-type: application/octet-stream\r\n` +
    `content-length: ${length}\r\n\r\n`;

  it('accepts a part that takes longer than the request timeout at a fair rate', async () => {
    const data = Buffer.alloc(48 * 1024, 7);
    const init = await initUpload(music.app, user, data);
    const c = await open(port);
    c.socket.write(putHead(init.upload_id, data.length));
    // 12 chunks of 4 KB every 200 ms: ~2.4 s (> 1500 ms) at ~20 KB/s (> 2000 B/s).
    const chunks = Array.from({ length: 12 }, (_, i) =>
      data.subarray(i * 4096, (i + 1) * 4096).toString('latin1'),
    );
    let i = 0;
    await new Promise<void>((done) => {
      const timer = setInterval(() => {
        c.socket.write(Buffer.from(chunks[i++]!, 'latin1'));
        if (i === chunks.length) {
          clearInterval(timer);
          done();
        }
      }, 200);
    });
    const text = await c.received('\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    c.socket.destroy();
  });

  it('answers a part trickled below the minimum rate with 408', async () => {
    const data = Buffer.alloc(48 * 1024, 7);
    const init = await initUpload(music.app, user, data);
    const c = await open(port);
    c.socket.write(putHead(init.upload_id, data.length));
    const stop = trickle(
      c,
      Array.from({ length: 1000 }, () => 'a'.repeat(50)),
      100,
    ); // 500 B/s
    const text = await c.closed;
    stop();
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/slower than 2000 bytes per second/);
  });
});
