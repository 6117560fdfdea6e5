/**
 * Invalid UTF-8 in a JSON body is a 400 in both services, never silently stored as U+FFFD
 * (issue 30, item 5): the music PATCH of a title, sign-up, and eval's JSON routes.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp } from './helpers/eval-app.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

const withByte = (json: string, marker: string, bytes: number[]): Buffer => {
  const [before, after] = json.split(marker) as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
};

/** A lone continuation byte, a truncated sequence, an overlong form, a surrogate half. */
const BAD_SEQUENCES = [[0xff], [0x80], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80]];

describe('invalid UTF-8 in JSON bodies', () => {
  let t: MusicTestApp;
  let user: TestUser;
  let evalApp: FastifyInstance;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    user = await signupUser(t.app, 'utf');
    evalApp = await makeEvalApp();
  });
  afterAll(async () => {
    await t?.close();
    await evalApp?.close();
  });

  it('music: PATCH a title holding a bad byte is a 400 and the title is unchanged', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: user.headers,
      payload: { title: 'Before' },
    });
    const id = created.json().id as string;
    for (const bad of BAD_SEQUENCES) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/tracks/${id}`,
        headers: { ...user.headers, 'content-type': 'application/json' },
        payload: withByte('{"title":"AXB"}', 'X', bad),
      });
      expect(res.statusCode, `${bad.join(',')}: ${res.body}`).toBe(400);
      expect(res.json().detail).toMatch(/not valid UTF-8/);
    }
    const read = await t.app.inject({ url: `/api/v1/tracks/${id}`, headers: user.headers });
    expect(read.json().title).toBe('Before');
    // Valid UTF-8 (with a leading BOM, as some clients send) still works.
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/tracks/${id}`,
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"title":"Après"}')]),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().title).toBe('Après');
  });

  it('music sign-up and eval JSON routes answer the same 400', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: withByte(
        '{"handle":"abcX","email":"a@example.org","password":"long enough pass"}',
        'X',
        [0xff],
      ),
    });
    expect(signup.statusCode).toBe(400);
    const evalRes = await evalApp.inject({
      method: 'POST',
      url: '/api/report-card/start',
      headers: { 'content-type': 'application/json' },
      payload: withByte('{"model":"mX"}', 'X', [0xff]),
    });
    expect(evalRes.statusCode, evalRes.body).toBe(400);
    expect(evalRes.json().detail).toMatch(/not valid UTF-8/);
  });
});
