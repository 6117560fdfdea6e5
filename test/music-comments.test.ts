/** Comments over HTTP: visibility follows the track, soft delete, the seed's comments rate limit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

describe('comments', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'owner');
    other = await signupUser(t.app, 'other');
  });
  afterAll(async () => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who?: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      ...(who ? { headers: who.headers } : {}),
      ...(payload ? { payload: payload } : {}),
    });
  const track = async (visibility: string) =>
    (await call('POST', '/api/v1/tracks', owner, { title: 'Song', visibility })).json().id as string;

  it('creates, lists by cursor and soft-deletes; a deleted comment is gone from the list', async () => {
    const id = await track('public');
    const made = [];
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/api/v1/comments', i % 2 ? other : owner, {
        track_id: id,
        body: `comment ${i}`,
        position_ms: i * 1000,
      });
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json().id as string);
    }
    const page1 = (await call('GET', `/api/v1/comments?track_id=${id}&limit=3`)).json();
    expect(page1.items.map((c: { body: string }) => c.body)).toEqual(['comment 0', 'comment 1', 'comment 2']);
    expect(page1.items[1].user.handle).toBe(other.handle);
    const page2 = (
      await call('GET', `/api/v1/comments?track_id=${id}&limit=3&cursor=${page1.next_cursor}`)
    ).json();
    expect(page2).toEqual({
      items: [expect.objectContaining({ body: 'comment 3' }), expect.objectContaining({ body: 'comment 4' })],
      next_cursor: null,
    });

    // Author deletes own; the track owner deletes someone else's on their track; others may not.
    expect((await call('DELETE', `/api/v1/comments/${made[1]}`, other)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/comments/${made[3]}`, owner)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/comments/${made[0]}`, other)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/v1/comments/${made[1]}`, other)).statusCode).toBe(404);
    const after = (await call('GET', `/api/v1/comments?track_id=${id}`)).json();
    expect(after.items.map((c: { body: string }) => c.body)).toEqual(['comment 0', 'comment 2', 'comment 4']);
    const row = await t.connections.prisma.comment.findUnique({ where: { id: made[1] } });
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  it("a comment on someone else's private track is a 404, listing too; bad input names the field", async () => {
    const priv = await track('private');
    expect((await call('POST', '/api/v1/comments', other, { track_id: priv, body: 'hi' })).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/api/v1/comments?track_id=${priv}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/comments?track_id=${priv}`)).statusCode).toBe(404);
    const mine = await call('POST', '/api/v1/comments', owner, { track_id: priv, body: 'note to self' });
    expect(mine.statusCode).toBe(201);
    expect((await call('DELETE', `/api/v1/comments/${mine.json().id}`, other)).statusCode).toBe(404);
    expect((await call('POST', '/api/v1/comments', other, { track_id: 'nope', body: 'hi' })).statusCode).toBe(
      404,
    );
    const bad = await call('POST', '/api/v1/comments', other, {
      track_id: priv,
      body: 'x'.repeat(2001),
      position_ms: -1,
      x: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['/body', '/position_ms', '/x']);
    expect((await call('POST', '/api/v1/comments', other, { track_id: priv, body: '   ' })).statusCode).toBe(
      404,
    );
    expect(
      (await call('POST', '/api/v1/comments', undefined, { track_id: priv, body: 'hi' })).statusCode,
    ).toBe(401);
    expect((await call('DELETE', '/api/v1/comments/123', owner)).statusCode).toBe(404);
  });
});

describe('comments rate limit', () => {
  // nginx limit_req semantics (as the limiter implements them): burst 5 admits the first request plus 5.
  it('the comment after a burst (5 + 1 admitted) is a 429 with Retry-After', async () => {
    const t = await createMusicTestApp();
    try {
      const owner = await signupUser(t.app, 'rl');
      const id = (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/tracks',
          headers: owner.headers,
          payload: { title: 'Song' },
        })
      ).json().id;
      const codes = [];
      let last;
      for (let i = 0; i < 7; i++) {
        last = await t.app.inject({
          method: 'POST',
          url: '/api/v1/comments',
          headers: owner.headers,
          payload: { track_id: id, body: `c${i}` },
        });
        codes.push(last.statusCode);
      }
      expect(codes).toEqual([201, 201, 201, 201, 201, 201, 429]);
      expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
      // The comments scope bounds posting only; reading a track's comments stays in the api scope.
      expect((await t.app.inject({ url: `/api/v1/comments?track_id=${id}` })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
