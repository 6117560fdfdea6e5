/** Plays and trending: dedup per listener, rollup with an injected clock, no stored address. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsService } from '../src/music/services/analytics-service.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { addReadyVersion } from './helpers/library-rows.js';
import { analyticsService } from './helpers/music-services.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

const HOUR = 3600_000;
const T0 = Date.parse('2026-03-10T12:00:00Z');

describe('plays and trending', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let clock = T0;
  let analytics: AnalyticsService;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' }, { nowSeconds: () => clock / 1000 });
    owner = await signupUser(t.app, 'plays');
    analytics = analyticsService(t, () => clock);
  });
  afterAll(async () => t.close());

  const addresses = ['203.0.113.7', '198.51.100.23', '2001:db8::77', '192.0.2.201'];

  async function trackWithVersion(visibility: string): Promise<string> {
    const id = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/tracks',
        headers: owner.headers,
        payload: { title: `T ${visibility}`, visibility },
      })
    ).json().id;
    await addReadyVersion(t.connections, id, owner.id, { artist: 'A', album: 'B' });
    return id;
  }
  const play = (trackId: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/plays',
      remoteAddress,
      payload: { track_id: trackId, position_ms: 0 },
    });

  it('counts two plays from one address within 30 minutes once; trending orders by decayed plays', async () => {
    const older = await trackWithVersion('public');
    const newer = await trackWithVersion('public');
    const hidden = await trackWithVersion('private');

    // 3 listeners played `older` 40 h ago; 2 played `newer` 1 h ago. Undecayed, older wins.
    clock = T0 - 40 * HOUR;
    for (const a of addresses.slice(0, 3)) expect((await play(older, a)).json()).toEqual({ counted: true });
    clock = T0 - HOUR;
    expect((await play(newer, addresses[0]!)).json()).toEqual({ counted: true });
    clock += 10 * 60_000;
    const again = await play(newer, addresses[0]!);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ counted: false });
    expect((await play(newer, addresses[1]!)).json()).toEqual({ counted: true });
    // The owner's private track: played (by its owner) but never trending.
    for (const a of addresses) {
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/analytics/plays',
        remoteAddress: a,
        headers: owner.headers,
        payload: { track_id: hidden },
      });
    }
    expect((await play(hidden, addresses[3]!)).statusCode).toBe(404);
    expect(await t.connections.prisma.playEvent.count({ where: { trackId: newer } })).toBe(2);

    clock = T0;
    const result = await analytics.rollup(T0);
    expect(result.pruned).toBe(0);
    const stats = await t.connections.prisma.trackDailyStats.findMany({
      where: { trackId: { in: [older, newer] } },
    });
    expect(
      stats.map((s) => [s.trackId === older ? 'older' : 'newer', s.plays, s.uniqueListeners]).sort(),
    ).toEqual([
      ['newer', 2, 2],
      ['older', 3, 3],
    ]);

    const week = await t.app.inject({ url: '/api/v1/trending?window=week' });
    expect(week.statusCode).toBe(200);
    expect(week.headers['cache-control']).toBe('public, max-age=900');
    // The run's database is shared with other files (the player and Subsonic tests play tracks too).
    const mine = (list: { track: { id: string } }[]) =>
      list.filter((i) => [older, newer, hidden].includes(i.track.id));
    const items = mine(week.json().items as { track: { id: string }; score: number }[]);
    expect(items.map((i) => i.track.id)).toEqual([newer, older]);
    expect(items.map((i) => i.track.id)).not.toContain(hidden);
    const day = (await t.app.inject({ url: '/api/v1/trending?window=day' })).json();
    expect(mine(day.items)).toEqual([
      {
        track: expect.objectContaining({ id: newer }),
        score: expect.closeTo(2 ** (-1 / 24) + 2 ** (-(50 / 60) / 24), 6),
      },
    ]);
    expect((await t.app.inject({ url: '/api/v1/trending?window=year' })).statusCode).toBe(400);

    // 49 h later the raw plays of 40 h ago are pruned; the daily stats stay.
    clock = T0 + 10 * HOUR;
    expect((await analytics.rollup(clock)).pruned).toBe(3);
    expect(await t.connections.prisma.trackDailyStats.count({ where: { trackId: older } })).toBe(1);
  });

  it('serves a built trending answer only until a rollup or a change to one of its tracks', async () => {
    const renamed = await trackWithVersion('public');
    const hidden = await trackWithVersion('public');
    const removed = await trackWithVersion('public');
    clock = T0 + 20 * HOUR;
    for (const [i, id] of [renamed, hidden, removed].entries())
      expect((await play(id, addresses[i]!)).json()).toEqual({ counted: true });
    await analytics.rollup(clock);
    const shown = async (): Promise<Record<string, string>> => {
      const res = await t.app.inject({ url: '/api/v1/trending?window=day&limit=100' });
      expect(res.statusCode).toBe(200);
      const items = res.json().items as { track: { id: string; title: string } }[];
      return Object.fromEntries(items.map((i) => [i.track.id, i.track.title]));
    };
    const mine = (all: Record<string, string>, ids: string[]) => ids.filter((id) => id in all).sort();
    expect(mine(await shown(), [renamed, hidden, removed])).toEqual([renamed, hidden, removed].sort());
    const patch = (id: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/api/v1/tracks/${id}`, headers: owner.headers, payload });
    expect((await patch(renamed, { title: 'Renamed since the rollup' })).statusCode).toBe(200);
    expect((await shown())[renamed]).toBe('Renamed since the rollup');
    expect((await patch(hidden, { visibility: 'private' })).statusCode).toBe(200);
    expect(mine(await shown(), [hidden])).toEqual([]);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/tracks/${removed}`,
      headers: owner.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(mine(await shown(), [renamed, hidden, removed])).toEqual([renamed]);
    // A second rollup at the same instant (an injected clock) with a new play is served too.
    const fresh = await trackWithVersion('public');
    expect((await play(fresh, addresses[3]!)).json()).toEqual({ counted: true });
    expect(mine(await shown(), [fresh])).toEqual([]);
    await analytics.rollup(clock);
    expect(mine(await shown(), [fresh])).toEqual([fresh]);
  });

  it('no table holds a client address in any text column', async () => {
    const rows = await t.connections.prisma.$queryRaw<{ table_name: string; column_name: string }[]>`
      SELECT table_name::text, column_name::text FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'character', 'jsonb', 'json')`;
    expect(rows.length).toBeGreaterThan(10);
    for (const { table_name, column_name } of rows) {
      for (const address of addresses) {
        const hits = await t.connections.prisma.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT count(*) AS n FROM "${table_name}" WHERE "${column_name}"::text LIKE $1`,
          `%${address}%`,
        );
        expect(Number(hits[0]?.n), `${table_name}.${column_name} holds ${address}`).toBe(0);
      }
    }
    expect(await t.connections.prisma.playEvent.count()).toBeGreaterThan(0);
  });
});
