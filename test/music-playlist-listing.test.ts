/**
 * Listing playlists and changing one under concurrency: Subsonic getPlaylists lists the caller's
 * own playlists first and never cuts them off, however many public ones others make, with each
 * playlist's songs counted in SQL; a change racing a delete is a 404, and a transaction that
 * cannot start in time is a 503 with Retry-After (repositories/database-errors.ts).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyDatabaseError } from '../src/music/repositories/database-errors.js';
import { createPrismaClient } from '../src/music/repositories/prisma.js';
import { PLAYLIST_LIMITS } from '../src/music/services/playlist-limits.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { waitForLockWaiter } from './helpers/postgres.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';

interface ListedPlaylist {
  id: string;
  owner: string;
  songCount: number;
  duration: number;
  coverArt?: string;
}

describe('playlist listing and concurrent changes', () => {
  let t: MusicTestApp;
  let carol: TestUser;
  let spammer: TestUser;
  let keys: Map<string, string>;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    carol = await signupUser(t.app, 'plc');
    spammer = await signupUser(t.app, 'pls');
    keys = await clientKeys(t.app, [carol, spammer]);
  });
  afterAll(async () => t.close());

  const api = (method: 'POST' | 'PATCH', url: string, who: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: who.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  async function rest<T>(who: TestUser, endpoint: string, params: Record<string, string | string[]> = {}) {
    const url = new URL(`http://localhost/rest/${endpoint}.view`);
    url.searchParams.set('apiKey', keys.get(who.id)!);
    url.searchParams.set('f', 'json');
    for (const [k, v] of Object.entries(params))
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
    const res = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    return res.json<{ 'subsonic-response': T & { status: string } }>()['subsonic-response'];
  }

  async function track(who: TestUser, title: string, visibility: string): Promise<string> {
    const id = (await api('POST', '/api/v1/tracks', who, { title, visibility })).json<{ id: string }>().id;
    await addReadyVersion(t.connections, id, who.id, { title, artist: 'Band', album: 'LP' });
    return id;
  }

  it("lists the caller's own playlists first, never pushed out by others' public ones, songs counted as getPlaylist shows them", async () => {
    // More public playlists of someone else than the old list held (1000), all older than carol's.
    await t.connections.prisma.playlist.createMany({
      data: Array.from({ length: 1001 }, (_, i) => ({
        ownerUserId: spammer.id,
        name: `spam ${i}`,
        public: true,
      })),
    });
    const withCover = await track(carol, 'Covered', 'public');
    const v = await t.connections.prisma.track.findUniqueOrThrow({ where: { id: withCover } });
    await t.connections.prisma.trackVersion.update({
      where: { id: v.currentVersionId! },
      data: { artworkKey: `${v.currentVersionId!}/cover.jpg` },
    });
    const plain = await track(carol, 'Plain', 'public');
    const hidden = await track(spammer, 'Theirs', 'public');
    const made = await rest<{ playlist: { id: string } }>(carol, 'createPlaylist', {
      name: 'carols own',
      songId: [plain, withCover, hidden, plain],
    });
    expect(made.status).toBe('ok');
    // Made private after it was added: carol's playlist keeps the entry, carol no longer sees it.
    await t.connections.prisma.track.update({ where: { id: hidden }, data: { visibility: 'private' } });

    const listed = (await rest<{ playlists: { playlist: ListedPlaylist[] } }>(carol, 'getPlaylists'))
      .playlists.playlist;
    expect(listed[0]?.id).toBe(made.playlist.id);
    expect(listed.filter((p) => p.owner === carol.handle)).toHaveLength(1);
    expect(listed.filter((p) => p.owner !== carol.handle).length).toBeLessThanOrEqual(
      PLAYLIST_LIMITS.othersListed,
    );
    const read = await rest<{ playlist: ListedPlaylist & { entry: { id: string }[] } }>(
      carol,
      'getPlaylist',
      {
        id: made.playlist.id,
      },
    );
    const { entry, ...summary } = read.playlist;
    expect(entry.map((e) => e.id)).toEqual([plain, withCover, plain]);
    expect(listed[0]).toMatchObject({
      songCount: 3,
      duration: summary.duration,
      coverArt: withCover,
    });
    expect(summary).toMatchObject({ songCount: 3, coverArt: withCover });
  });

  it('answers a change racing a delete of the same playlist with 404, not 500', async () => {
    const made = await api('POST', '/api/v1/playlists', carol, { name: 'about to go' });
    const id = made.json<{ id: string }>().id;
    // Another request holds the playlist's row, deletes it and commits while the PATCH waits for it.
    const other = new pg.Client({ connectionString: testDatabaseUrl() });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM playlists WHERE id = $1 FOR UPDATE', [id]);
      const patch = api('PATCH', `/api/v1/playlists/${id}`, carol, { name: 'renamed' });
      await waitForLockWaiter(t.connections.pool, '%FROM playlists WHERE id%FOR UPDATE%');
      await other.query('DELETE FROM playlists WHERE id = $1', [id]);
      await other.query('COMMIT');
      const res = await patch;
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json<{ detail: string }>().detail).toContain('No playlist with this id');
    } finally {
      await other.end();
    }
  });

  it('answers a transaction the busy database could not run in time with 503 and Retry-After', async () => {
    const prisma = createPrismaClient(testDatabaseUrl(), { poolSize: 1 });
    const failure = (p: Promise<unknown>): Promise<unknown> =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      );
    try {
      // Prisma's transaction API error (P2028): the work outlived the transaction's time.
      const expired = await failure(
        prisma.$transaction(
          async (tx) => {
            await failure(tx.$queryRaw`SELECT pg_sleep(0.3)`);
          },
          { timeout: 50 },
        ),
      );
      expect((expired as { code?: string }).code).toBe('P2028');
      // Every connection of the pool busy for longer than a connection may be waited for.
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started = (): void => undefined;
      const holding = new Promise<void>((resolve) => (started = resolve));
      const first = prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          started();
          await held;
        },
        { timeout: 20_000 },
      );
      await holding;
      const exhausted = await failure(prisma.$queryRaw`SELECT 1`);
      release();
      await first;
      for (const err of [expired, exhausted]) {
        const answer = classifyDatabaseError(err);
        expect(answer?.status, String(err)).toBe(503);
        expect(answer?.headers['retry-after']).toBe('5');
      }
    } finally {
      await prisma.$disconnect();
    }
  }, 30_000);
});
