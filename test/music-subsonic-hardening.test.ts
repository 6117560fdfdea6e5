/**
 * /rest hardening (issue 30, items 2 and 3): the failed-login limit is checked before the
 * credentials, per address and per user name, so once it is spent the right key is refused too;
 * parameter names such as __proto__ and non-string JSON values are answered as Subsonic errors,
 * never a 500; percent-escapes that are not UTF-8 are refused, not kept as typed; failed /rest/
 * logins spend the auth scope shared with the login endpoint.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSONIC_USER_FAILURE_LIMIT } from '../src/music/subsonic/auth.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

describe('/rest failed-login limit comes first', () => {
  let t: MusicTestApp;
  let user: TestUser;
  let key: string;
  beforeAll(async () => {
    t = await createMusicTestApp({});
    user = await signupUser(t.app, 'lim');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: user.headers,
      payload: { name: 'player' },
    });
    expect(created.statusCode, created.body).toBe(201);
    key = created.json().key;
  });
  afterAll(async () => t?.close());

  const ping = (remoteAddress: string, query: string) =>
    t.app.inject({ url: `/rest/ping.view?f=json&${query}`, remoteAddress });
  const status = async (remoteAddress: string, query: string) => {
    const res = await ping(remoteAddress, query);
    if (res.statusCode === 429) return 429;
    return res.json()['subsonic-response'].status as string;
  };
  const token = (salt: string) =>
    createHash('md5')
      .update(key + salt)
      .digest('hex');

  it('per address: once the failures are spent, the right p, t/s and apiKey are refused too', async () => {
    const address = '198.51.100.20';
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push(await status(address, `u=${user.handle}&p=wrong-${i}`));
    expect(wrong).toEqual(['failed', 'failed', 'failed', 'failed', 429]);
    expect(await status(address, `u=${user.handle}&p=${encodeURIComponent(key)}`)).toBe(429);
    expect(await status(address, `u=${user.handle}&t=${token('abc123')}&s=abc123`)).toBe(429);
    expect(await status(address, `apiKey=${encodeURIComponent(key)}`)).toBe(429);
    // Another address is not affected.
    expect(await status('198.51.100.21', `apiKey=${encodeURIComponent(key)}`)).toBe('ok');
  });

  it('per user: guesses spread over many addresses lock the name, not the addresses', async () => {
    const victim = await signupUser(t.app, 'vic');
    const attempts = SUBSONIC_USER_FAILURE_LIMIT.burst + 1;
    for (let i = 0; i < attempts; i++)
      expect(await status(`203.0.113.${i + 1}`, `u=${victim.handle}&p=guess-${i}`)).toBe('failed');
    expect(await status('203.0.113.200', `u=${victim.handle}&p=guess-last`)).toBe(429);
    // The user's failures do not stop another user at the same addresses.
    expect(await status('203.0.113.1', `apiKey=${encodeURIComponent(key)}`)).toBe('ok');
    const refused = await ping('203.0.113.201', `u=${victim.handle}&p=another`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()['subsonic-response'].error.message).toMatch(/for this user/);
  });
});

describe('/rest parameters', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  });
  afterAll(async () => t?.close());

  it('__proto__, constructor and toString are parameter names like any other', async () => {
    for (const body of [
      '__proto__=x',
      'constructor=',
      'toString=',
      '__proto__=a&__proto__=b&hasOwnProperty=1',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/rest/ping?f=json',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
      expect(res.statusCode, `${body}: ${res.body}`).toBe(200);
      expect(res.json()['subsonic-response'].error).toMatchObject({ code: 10 });
    }
    const query = await t.app.inject({ url: '/rest/ping?f=json&__proto__=x&constructor=y' });
    expect(query.statusCode).toBe(200);
    expect(query.json()['subsonic-response'].error).toMatchObject({ code: 10 });
  });

  it('percent-escapes that are not UTF-8, in the query or a form body, are an error naming the parameter', async () => {
    const cases: [string, string, RegExp][] = [
      ['query', 'u=caf%C3%A9%ff&p=x', /^Parameter u: its percent-escapes are not UTF-8/],
      ['query', 'u=me&p=100%', /^Parameter p: holds a "%" not followed by two hexadecimal digits/],
      ['query', 'n%ffame=x', /^Parameter n%ffame: its percent-escapes are not UTF-8/],
      ['form', 'name=caf%C3%A9%ff', /^Parameter name: its percent-escapes are not UTF-8/],
    ];
    for (const [where, params, message] of cases) {
      const res = await t.app.inject(
        where === 'query'
          ? { url: `/rest/ping?f=json&${params}` }
          : {
              method: 'POST',
              url: '/rest/createPlaylist?f=json',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: params,
            },
      );
      expect(res.statusCode, params).toBe(200);
      expect(res.json()['subsonic-response'].error.message, params).toMatch(message);
    }
    // Well-formed escapes and "+" decode as before: the request reaches the credentials check.
    const fine = await t.app.inject({ url: '/rest/ping?f=json&u=caf%C3%A9+b&p=x' });
    expect(fine.json()['subsonic-response'].error).toMatchObject({ code: 40 });
  });

  it('a body it cannot read is a Subsonic error in the asked format, never a problem document or U+FFFD', async () => {
    const send = (type: string, payload: string | Buffer) =>
      t.app.inject({ method: 'POST', url: '/rest/ping?f=json', headers: { 'content-type': type }, payload });
    const cases: [string, string | Buffer, RegExp][] = [
      [
        'application/x-www-form-urlencoded',
        Buffer.concat([Buffer.from('name=caf\xc3\xa9-', 'latin1'), Buffer.from([0xff, 0xfe])]),
        /^The form body is not UTF-8/,
      ],
      ['application/json', '{"apiKey":"x","__proto__":{}}', /__proto__/],
      ['application/json', '{"apiKey":', /JSON/],
      ['application/json', '["apiKey"]', /^A JSON body must be an object of parameters/],
      [
        'text/plain',
        'apiKey=x',
        /^A text\/plain body is not read: send parameters in the query string or as an application\/x-www-form-urlencoded body/,
      ],
    ];
    for (const [type, payload, message] of cases) {
      const res = await send(type, payload);
      expect(res.headers['content-type'], `${type} ${res.body}`).toMatch(/^application\/json/);
      expect(res.statusCode).toBe(200);
      const answer = res.json()['subsonic-response'];
      expect(answer.status).toBe('failed');
      expect(answer.error.code).toBe(0);
      expect(answer.error.message, type).toMatch(message);
    }
  });

  it('a JSON value that is not text is error 10 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['{"apiKey":123}', 'apiKey'],
      ['{"u":null,"p":true}', 'u'],
      ['{"u":"me","p":{"a":1}}', 'p'],
      ['{"u":["me",1],"p":"x"}', 'u'],
    ];
    for (const [payload, name] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/rest/ping?f=json',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, `${payload}: ${res.body}`).toBe(200);
      const error = res.json()['subsonic-response'].error;
      expect(error.code, payload).toBe(10);
      expect(error.message, payload).toContain(`Parameter ${name} must be text`);
    }
  });

  it("an integer parameter is decimal digits only, the REST API's rule: anything else is an error naming it", async () => {
    const user = await signupUser(t.app, 'sdec');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: user.headers,
      payload: { name: 'player' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = encodeURIComponent(created.json<{ key: string }>().key);
    const call = async (endpoint: string, query: string) =>
      (await t.app.inject({ url: `/rest/${endpoint}?f=json&apiKey=${key}&${query}` })).json()[
        'subsonic-response'
      ];
    for (const bad of ['0x10', '1e2', '+5', ' 5', '5 ', '1.0', '-0', '']) {
      const answer = await call('getAlbumList2', `type=newest&offset=${encodeURIComponent(bad)}`);
      if (bad === '') {
        // Empty is "not given" (the default), as Subsonic clients send it.
        expect(answer.status, bad).toBe('ok');
        continue;
      }
      expect(answer.status, bad).toBe('failed');
      expect(answer.error, bad).toEqual({
        code: 0,
        message: `Parameter offset: must be a whole number from 0 to 1000000 in plain decimal digits: no plus sign, spaces, hexadecimal or exponent (got ${JSON.stringify(bad)})`,
      });
    }
    expect((await call('getAlbumList2', 'type=newest&offset=007&size=5')).status).toBe('ok');
    // Repeated integers follow it too.
    const list = await call('createPlaylist', 'name=mine');
    expect(list.status).toBe('ok');
    const removed = await call('updatePlaylist', `playlistId=${list.playlist.id}&songIndexToRemove=0x0`);
    expect(removed.error).toMatchObject({
      code: 0,
      message: expect.stringMatching(/^Parameter songIndexToRemove:/),
    });
  });
});

describe('OpenSubsonic API rate limits', () => {
  it('failed /rest/ logins spend the auth scope per address: the burst is refused with 429', async () => {
    const t = await createMusicTestApp({});
    try {
      const send = (remoteAddress: string, p: string) =>
        t.app.inject({ url: `/rest/ping.view?u=nobody&p=${p}&f=json`, remoteAddress });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await send('203.0.113.7', 'wrong')).statusCode);
      // The seed's auth scope (5/min, burst 3, nginx semantics): 4 attempts answered, the 5th refused.
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const refused = await send('203.0.113.7', 'wrong');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()['subsonic-response']).toMatchObject({ status: 'failed', error: { code: 0 } });
      // The login endpoint shares the scope: this address is refused there too.
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '203.0.113.7',
        payload: { login: 'nobody', password: 'whatever-password' },
      });
      expect(login.statusCode).toBe(429);
      // Another address is unaffected; /rest/ spelled with %-escapes is the same route.
      expect((await send('203.0.113.8', 'wrong')).statusCode).toBe(200);
      expect(
        (await t.app.inject({ url: '/%72est/ping.view?u=nobody&p=x&f=json', remoteAddress: '203.0.113.7' }))
          .statusCode,
      ).toBe(429);
    } finally {
      await t.close();
    }
  });
});
