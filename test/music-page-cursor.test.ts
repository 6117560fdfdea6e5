/** Forged pagination cursors: every paginated route (playlists' pages too) answers 400 with an actionable message, never a 500. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeCursor,
  decodeOffsetCursor,
  encodeCursor,
  encodeOffsetCursor,
} from '../src/music/services/page-cursor.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

const forge = (text: string): string => Buffer.from(text).toString('base64url');
const id = randomUUID();
const FORGED = [
  `0000-01-01T00:00:00.000Z|${id}`,
  `-000001-01-01T00:00:00.000Z|${id}`,
  `+275760-09-13T00:00:00.000Z|${id}`,
  `1 Jan 200000|${id}`,
  `1969-12-31T23:59:59.999Z|${id}`,
  `2026-02-30T00:00:00.000Z|${id}`,
  `2026-01-01|${id}`,
  `2026-01-01T00:00:00.000+01:00|${id}`,
  `2026-01-01T00:00:00.000Z|${id.toUpperCase()}`,
  `2026-01-01T00:00:00.000Z|${id}|extra`,
  `2026-01-01T00:00:00.000Z|not-a-uuid`,
];

describe('page cursor', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let trackId: string;
  let playlistId: string;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'cursor');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title: 'Song', visibility: 'public' },
    });
    trackId = res.json().id as string;
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/v1/playlists',
      headers: owner.headers,
      payload: { name: 'Listed', public: true },
    });
    playlistId = list.json().id as string;
  });
  afterAll(async () => t.close());

  it('round-trips what it gives out', () => {
    const c = { createdAt: new Date('2026-03-04T05:06:07.089Z'), id };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    const at = { version: new Date('2026-03-04T05:06:07.089Z'), offset: 9_500 };
    expect(decodeOffsetCursor(encodeOffsetCursor(at))).toEqual(at);
    // Neither kind is taken for the other.
    expect(() => decodeOffsetCursor(encodeCursor(c))).toThrow(/next_cursor/);
    expect(() => decodeCursor(encodeOffsetCursor(at))).toThrow(/next_cursor/);
  });

  it('answers 400, not 500, to a forged cursor on every paginated route', async () => {
    const routes = [
      (c: string) => ({ url: `/api/v1/users/${owner.handle}?cursor=${c}` }),
      (c: string) => ({ url: `/api/v1/tracks/${trackId}/comments?cursor=${c}` }),
      (c: string) => ({ url: `/api/v1/comments?track_id=${trackId}&cursor=${c}` }),
      (c: string) => ({ url: `/api/v1/me/tracks?cursor=${c}`, headers: owner.headers }),
      (c: string) => ({ url: `/api/v1/playlists/${playlistId}?cursor=${c}` }),
      (c: string) => ({ url: `/api/v1/playlists/${playlistId}/tracks?cursor=${c}` }),
    ];
    for (const text of FORGED)
      for (const route of routes) {
        const res = await t.app.inject({ method: 'GET', ...route(forge(text)) });
        expect(res.statusCode, `${route('').url} ${text}: ${res.body}`).toBe(400);
        expect(res.body).toContain('next_cursor');
      }
  });
});
