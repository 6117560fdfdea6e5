/**
 * A track deleted while a write that names it is on its way: the service found the track, the
 * insert then meets the foreign key (Prisma P2003, or P2010 with SQLSTATE 23503 from raw SQL).
 * Every such write answers as for a missing track, never a 500 (repositories/database-errors.ts);
 * Subsonic answers with its own error document (code 70).
 */
import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKeys } from './helpers/library-rows.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import {
  openPaymentsFixture,
  priceTrack,
  sellerWithTrack,
  type PaymentsFixture,
} from './helpers/payments-fixture.js';

let f: PaymentsFixture;
let fan: TestUser;
let fanKey: string;

beforeAll(async () => {
  f = await openPaymentsFixture();
  fan = await signupUser(f.t.app, 'fan');
  fanKey = (await clientKeys(f.t.app, [fan])).get(fan.id)!;
}, 60_000);

afterAll(async () => {
  await f?.close();
});

const inject = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown) =>
  f.t.app.inject({
    method,
    url,
    headers: fan.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const subsonic = (endpoint: string, params: Record<string, string>) =>
  f.t.app.inject({
    method: 'GET',
    url: `/rest/${endpoint}?${new URLSearchParams({ apiKey: fanKey, f: 'json', c: 'test', ...params }).toString()}`,
  });

/** A public, priced track of another artist, ready to play. */
async function freshTrack(): Promise<string> {
  const seller = await sellerWithTrack(f.t, 'Soon gone');
  await priceTrack(f.t, seller, { currency: 'usd', amount: 500, tips: true });
  return seller.trackId;
}

/**
 * Deletes the track in a transaction that commits only once `write` waits on it: the write has
 * read the track by then, and its insert waits for the foreign key's row lock, then fails.
 */
async function deletedDuring(
  trackId: string,
  write: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  const other = new pg.Client({ connectionString: testDatabaseUrl() });
  await other.connect();
  try {
    await other.query('BEGIN');
    const { rows } = await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await other.query('DELETE FROM tracks WHERE id = $1', [trackId]);
    const answer = write();
    await waitForBlockedBy(rows[0]!.pid);
    await other.query('COMMIT');
    return await answer;
  } finally {
    await other.end();
  }
}

/** Resolves once a backend waits for a lock the backend `pid` holds. */
async function waitForBlockedBy(pid: number): Promise<void> {
  for (;;) {
    const { rows } = await f.t.connections.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
      [pid],
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function expectTrackGone(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.json<{ detail: string }>().detail).toMatch(/track this request names was deleted meanwhile/);
}

function expectSubsonicNotFound(res: LightMyRequestResponse): void {
  expect(res.headers['content-type'], res.body).toMatch(/^application\/json/);
  const answer = res.json<{ 'subsonic-response': { status: string; error: { code: number } } }>();
  expect(answer['subsonic-response'].status, res.body).toBe('failed');
  expect(answer['subsonic-response'].error.code).toBe(70);
}

describe('a track deleted while a write names it', () => {
  it('creating or changing a playlist with it is a 404, not a 500', async () => {
    const first = await freshTrack();
    expectTrackGone(
      await deletedDuring(first, () =>
        inject('POST', '/api/v1/playlists', { name: 'with it', track_ids: [first] }),
      ),
    );
    const list = (await inject('POST', '/api/v1/playlists', { name: 'empty' })).json<{ id: string }>().id;
    const track = await freshTrack();
    expectTrackGone(
      await deletedDuring(track, () => inject('PATCH', `/api/v1/playlists/${list}`, { track_ids: [track] })),
    );
  });

  it('Subsonic createPlaylist and updatePlaylist answer error 70 in a Subsonic document', async () => {
    const track = await freshTrack();
    expectSubsonicNotFound(
      await deletedDuring(track, () => subsonic('createPlaylist', { name: 'sub', songId: track })),
    );
    const list = (await inject('POST', '/api/v1/playlists', { name: 'sub empty' })).json<{ id: string }>().id;
    const other = await freshTrack();
    expectSubsonicNotFound(
      await deletedDuring(other, () => subsonic('updatePlaylist', { playlistId: list, songIdToAdd: other })),
    );
  });

  it('a checkout (raw SQL insert) and a comment are 404s too', async () => {
    for (const kind of ['sale', 'tip'] as const) {
      const track = await freshTrack();
      const res = await deletedDuring(track, () =>
        inject('POST', '/api/v1/payments/checkout', {
          track_id: track,
          kind,
          ...(kind === 'tip' ? { amount: 300 } : {}),
        }),
      );
      expectTrackGone(res);
    }
    const track = await freshTrack();
    expectTrackGone(
      await deletedDuring(track, () => inject('POST', '/api/v1/comments', { track_id: track, body: 'hi' })),
    );
  });
});
