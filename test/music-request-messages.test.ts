/**
 * Messages a person can act on for requests the schemas never see: a handle in the path in the
 * wrong form, a path whose escapes are not UTF-8, a body over the route's limit (the limit named),
 * and a multipart form sent to a JSON route (415, not a JSON syntax error).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PICTURE_BODY_LIMIT } from '../src/music/services/profile-picture-service.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

describe('request messages', () => {
  let t: MusicTestApp;
  let base: string;
  let who: TestUser;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    who = await signupUser(t.app, 'msg');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t.close());

  const detail = async (res: Response): Promise<string> => ((await res.json()) as { detail: string }).detail;

  it('names the form of a handle and tells bad percent-encoding from escapes that are not UTF-8', async () => {
    const short = await fetch(`${base}/api/v1/users/ME`);
    expect(short.status).toBe(400);
    expect(await detail(short)).toContain(
      'handle is "ME"; it must be 3 to 30 letters (a to z), digits or underscores',
    );
    const notUtf8 = await fetch(`${base}/api/v1/users/a%ff`);
    expect(notUtf8.status).toBe(400);
    expect(await detail(notUtf8)).toContain('percent-encoding (%ff) does not spell UTF-8 text');
    const bare = await fetch(`${base}/api/v1/users/a%zz`);
    expect(bare.status).toBe(400);
    expect(await detail(bare)).toContain('a "%" not followed by two hexadecimal digits');
  });

  it("states the route's body limit in a 413", async () => {
    const big = await fetch(`${base}/api/v1/users/me/picture`, {
      method: 'PUT',
      headers: { ...who.headers, 'content-type': 'image/png' },
      body: Buffer.alloc(PICTURE_BODY_LIMIT + 1, 1),
    });
    expect(big.status).toBe(413);
    expect(await detail(big)).toContain(`limit of 10 MB (${PICTURE_BODY_LIMIT} bytes)`);
  });

  it('answers a multipart form sent to a JSON route with 415 saying to send JSON', async () => {
    const form = new FormData();
    form.set('name', 'mix');
    const res = await fetch(`${base}/api/v1/playlists`, { method: 'POST', headers: who.headers, body: form });
    expect(res.status).toBe(415);
    expect(await detail(res)).toContain('reads a JSON body, not multipart/form-data');
  });
});
