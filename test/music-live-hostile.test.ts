/**
 * GET /api/v1/events against a hostile or careless client: every refusal is a close code with
 * a reason (or a 4xx before the upgrade), and the instance keeps serving everyone else.
 */
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient } from './helpers/live-client.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

describe('live updates: hostile clients', () => {
  let t: MusicTestApp;
  let url: string;
  let origin: string;
  let user: TestUser;
  const opened: LiveClient[] = [];

  const open = async (headers: Record<string, string> = {}): Promise<LiveClient> => {
    const c = await LiveClient.open(url, headers);
    if (!(c instanceof LiveClient)) throw new Error(`refused: ${c.status} ${c.body}`);
    opened.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off', EVENTS_HEARTBEAT_SECONDS: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    url = `ws://127.0.0.1:${port}/api/v1/events`;
    origin = `http://127.0.0.1:${port}`;
    user = await signupUser(t.app, 'live');
  });

  afterAll(async () => {
    for (const c of opened) c.ws.terminate();
    await t?.close();
  });

  it.each([
    ['not JSON', 'hello there', /JSON objects/],
    ['a JSON array', '[1,2]', /JSON objects/],
    ['no version', '{"type":"hello"}', /"v" must be 1/],
    ['an unknown type', '{"type":"subscribe","v":1}', /"type" must be/],
    ['an unknown field', '{"type":"hello","v":1,"user_id":"x"}', /no field "user_id"/],
    ['a bad resume id', '{"type":"hello","v":1,"last_id":"../etc"}', /last_id/],
    ['a token with control characters', '{"type":"hello","v":1,"token":"a\\u0000b"}', /token/],
    ['ping before hello', '{"type":"ping","v":1}', /first message must be hello/],
  ])('closes on %s with 4400 and the reason', async (_name, text, reason) => {
    const c = await open();
    c.send(text);
    const closed = await c.closed;
    expect(closed.code).toBe(4400);
    expect(closed.reason).toMatch(reason);
  });

  it('closes on a binary frame, invalid UTF-8 and an oversized message', async () => {
    const binary = await open();
    binary.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await binary.closed).toMatchObject({ code: 4400, reason: expect.stringMatching(/not binary/) });
    const utf8 = await open();
    utf8.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect((await utf8.closed).code).toBe(1007);
    const big = await open();
    big.send({ type: 'hello', v: 1, token: 'x'.repeat(20_000) });
    expect((await big.closed).code).toBe(1009);
  });

  it('refuses a missing, forged or revoked token with 4001', async () => {
    const none = await open();
    none.send({ type: 'hello', v: 1 });
    expect(await none.closed).toMatchObject({
      code: 4001,
      reason: expect.stringMatching(/authentication required/),
    });
    const forged = await open();
    forged.send({ type: 'hello', v: 1, token: `${user.token}x` });
    expect(await forged.closed).toMatchObject({ code: 4001, reason: expect.stringMatching(/log in again/) });
    const other = await signupUser(t.app, 'gone');
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: other.headers });
    expect(out.statusCode, out.body).toBeLessThan(300);
    const revoked = await open();
    revoked.send({ type: 'hello', v: 1, token: other.token });
    expect((await revoked.closed).code).toBe(4001);
  });

  it('refuses hello twice', async () => {
    const c = await LiveClient.connect(url, { token: user.token });
    opened.push(c);
    c.send({ type: 'hello', v: 1, token: user.token });
    expect(await c.closed).toMatchObject({ code: 4400, reason: 'hello was already sent' });
  });

  it('sends heartbeats, and closes the socket of a session that logged out', async () => {
    const other = await signupUser(t.app, 'beat');
    const c = await LiveClient.connect(url, { token: other.token });
    opened.push(c);
    expect(c.messages[0]).toMatchObject({ type: 'hello', heartbeat_seconds: 1 });
    await c.next((m) => m.type === 'heartbeat');
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: other.headers });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect(await c.closed).toMatchObject({ code: 4001, reason: 'the session ended: log in again' });
  });

  it('answers ping with pong', async () => {
    const c = await LiveClient.connect(url, { token: user.token });
    opened.push(c);
    c.send({ type: 'ping', v: 1 });
    await c.next((m) => m.type === 'pong');
  });

  it('closes a client that floods messages with 4429, after a burst every client stays within', async () => {
    const c = await LiveClient.connect(url, { token: user.token });
    opened.push(c);
    // The hello was one message of the burst: 19 pings more are answered.
    for (let i = 0; i < 19; i++) c.send({ type: 'ping', v: 1 });
    const pongs = () => c.messages.filter((m) => m.type === 'pong').length;
    await c.next(() => pongs() === 19);
    for (let i = 0; i < 50; i++) c.send({ type: 'ping', v: 1 });
    expect(await c.closed).toMatchObject({ code: 4429, reason: expect.stringMatching(/too many messages/) });
    // The instance serves the next client as before.
    const next = await LiveClient.connect(url, { token: user.token });
    opened.push(next);
    next.send({ type: 'ping', v: 1 });
    await next.next((m) => m.type === 'pong');
  });

  it('takes the session cookie from this site only; never a token in the URL', async () => {
    const cookie = `__Host-music_session=${user.token}`;
    const foreign = await LiveClient.open(url, { cookie, origin: 'https://evil.example' });
    expect(foreign).toMatchObject({ status: 403 });
    const own = await open({ cookie, origin });
    own.send({ type: 'hello', v: 1 });
    await own.next((m) => m.type === 'hello');
    const inUrl = await LiveClient.open(`${url}?token=${user.token}`);
    if (!(inUrl instanceof LiveClient)) throw new Error('refused');
    opened.push(inUrl);
    inUrl.send({ type: 'hello', v: 1 });
    expect((await inUrl.closed).code).toBe(4001);
  });

  it('a plain GET is a 400 naming the upgrade', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/events', headers: user.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/Upgrade: websocket/);
  });

  it('raw garbage on the upgraded socket does not crash the instance', async () => {
    const c = await open();
    const raw = (c.ws as unknown as { _socket: Socket })._socket;
    raw.write(Buffer.from('GARBAGE\r\n\r\n\x00\x01\x02 not a frame at all'));
    expect((await c.closed).code).toBeGreaterThanOrEqual(1000);
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    const fine = await LiveClient.connect(url, { token: user.token });
    opened.push(fine);
    expect(fine.messages[0]).toMatchObject({ type: 'hello', user_id: user.id });
  });
});

describe('live updates: what a refused frame logs', () => {
  it('an oversized frame or invalid UTF-8 is one warning without a stack, never an error', async () => {
    const lines: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    const logStream = {
      write(line: string) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
        for (const wake of waiters.splice(0)) wake();
      },
    };
    const warnings = (n: number) =>
      new Promise<void>((resolve) => {
        // At LOG_LEVEL warn every line counts: one is written for each refused frame.
        const check = () => {
          if (lines.length >= n) resolve();
          else waiters.push(check);
        };
        check();
      });
    const t = await createMusicTestApp({ RATE_LIMITS: 'off', LOG_LEVEL: 'warn' }, { logStream });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/events`;
      const big = await LiveClient.open(url);
      if (!(big instanceof LiveClient)) throw new Error(`refused: ${big.status}`);
      big.send({ type: 'hello', v: 1, token: 'x'.repeat(20_000) });
      expect((await big.closed).code).toBe(1009);
      const utf8 = await LiveClient.open(url);
      if (!(utf8 instanceof LiveClient)) throw new Error(`refused: ${utf8.status}`);
      utf8.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
      expect((await utf8.closed).code).toBe(1007);
      await warnings(2);
      expect(lines.map((l) => [l.level, l.ws_error, l.msg])).toEqual([
        [40, 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', 'live updates: client frame refused'],
        [40, 'WS_ERR_INVALID_UTF8', 'live updates: client frame refused'],
      ]);
      expect(JSON.stringify(lines)).not.toMatch(/"stack"|"err"/);
      expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
