/**
 * A playlist's songs a page at a time (GET /api/v1/playlists/:id, then /tracks with the cursor):
 * a walk shows every song the reader may play exactly once, in order, the hidden entries between
 * them skipped and never counted; edits name positions as the pages numbered them and keep the
 * hidden entries in place; a cursor from before an edit and a position whose song moved are a
 * 409; bad paging input is a 400 naming the parameter; a playlist holds at most 10,000 entries,
 * and Subsonic's getPlaylist (no paging in its spec) answers all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { apiCaller, signupUser, spreadAddress, type TestUser } from './helpers/music-domain.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';

interface Item {
  id: string;
  title: string;
  position: number;
}
interface Page {
  items: Item[];
  next_cursor: string | null;
}
interface View {
  id: string;
  track_count: number;
  duration_seconds: number;
  tracks: Page;
}
interface Problem {
  detail: string;
  errors?: { path: string; message: string }[];
}
interface SubsonicDoc {
  status: string;
  error?: { code: number; message: string };
  playlist: { id: string; songCount: number; entry?: { id: string }[] };
}

describe('playlist pages', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let reader: TestUser;
  let other: TestUser;
  let keys: Map<string, string>;
  /** Track ids by title: T0..T13 public, P0..P3 the owner's private ones, G0 and G1 another's, made private. */
  const id: Record<string, string> = {};
  const title = new Map<string, string>();
  const titles = (ids: string[]): string[] => ids.map((x) => title.get(x) ?? x);

  const call = apiCaller(() => t.app, '10.7');

  async function rest(who: TestUser, endpoint: string, params: Record<string, string | string[]> = {}) {
    const url = new URL(`http://localhost/rest/${endpoint}.view`);
    url.searchParams.set('apiKey', keys.get(who.id)!);
    url.searchParams.set('f', 'json');
    for (const [k, v] of Object.entries(params))
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
    const res = await t.app.inject({
      method: 'GET',
      url: url.pathname + url.search,
      remoteAddress: spreadAddress('10.8'),
    });
    return res.json<{ 'subsonic-response': SubsonicDoc }>()['subsonic-response'];
  }

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'pgo');
    reader = await signupUser(t.app, 'pgr');
    other = await signupUser(t.app, 'pgx');
    keys = await clientKeys(t.app, [owner, reader]);
    const make = async (who: TestUser, name: string, visibility: string) => {
      const res = await call('POST', '/api/v1/tracks', who, { title: name, visibility });
      id[name] = res.json<{ id: string }>().id;
      title.set(id[name], name);
      await addReadyVersion(t.connections, id[name], who.id, { title: name, artist: 'Band', album: 'LP' });
    };
    for (let i = 0; i < 14; i++) await make(owner, `T${i}`, 'public');
    for (let i = 0; i < 4; i++) await make(owner, `P${i}`, 'private');
    for (let i = 0; i < 2; i++) await make(other, `G${i}`, 'public');
  });
  afterAll(async () => t.close());

  const ORDER = 'T0 P0 T1 T2 G0 T3 P1 T4 T5 T6 P2 G1 T7 T8 T9 T0 P3 T10 T11 T12 T13'.split(' ');

  /** A public playlist of the owner's in ORDER, G0 and G1 made private by their owner afterwards. */
  async function playlist(): Promise<string> {
    await Promise.all(
      ['G0', 'G1'].map((g) =>
        t.connections.prisma.track.update({ where: { id: id[g] }, data: { visibility: 'public' } }),
      ),
    );
    const made = await call('POST', '/api/v1/playlists', owner, {
      name: 'Paged',
      public: true,
      track_ids: ORDER.map((n) => id[n]),
    });
    expect(made.statusCode, made.body).toBe(201);
    await Promise.all(
      ['G0', 'G1'].map((g) =>
        t.connections.prisma.track.update({ where: { id: id[g] }, data: { visibility: 'private' } }),
      ),
    );
    return made.json<{ id: string }>().id;
  }

  /** Every page from the first (GET /playlists/:id?limit=) on, by next_cursor. */
  async function walk(who: TestUser | undefined, playlistId: string, limit: number) {
    const first = await call('GET', `/api/v1/playlists/${playlistId}?limit=${limit}`, who);
    expect(first.statusCode, first.body).toBe(200);
    const view = first.json<View>();
    const pages: Page[] = [view.tracks];
    while (pages.at(-1)!.next_cursor !== null) {
      const cursor = encodeURIComponent(pages.at(-1)!.next_cursor!);
      const res = await call(
        'GET',
        `/api/v1/playlists/${playlistId}/tracks?limit=${limit}&cursor=${cursor}`,
        who,
      );
      expect(res.statusCode, res.body).toBe(200);
      pages.push(res.json<Page>());
    }
    return { view, pages, items: pages.flatMap((p) => p.items) };
  }

  const stored = async (playlistId: string) =>
    titles(
      (
        await t.connections.prisma.playlistEntry.findMany({
          where: { playlistId },
          orderBy: { position: 'asc' },
        })
      ).map((e) => e.trackId),
    );

  it('a walk of the pages shows each song the reader may play once, in order; hidden entries are skipped, not counted', async () => {
    const p = await playlist();
    const forReader = ORDER.filter((n) => n.startsWith('T'));
    const forOwner = ORDER.filter((n) => !n.startsWith('G'));
    for (const [who, expected] of [
      [reader, forReader],
      [undefined, forReader],
      [owner, forOwner],
    ] as const) {
      for (const limit of [1, 4, 5, 500]) {
        const { view, pages, items } = await walk(who, p, limit);
        expect(titles(items.map((i) => i.id))).toEqual(expected);
        expect(items.map((i) => i.position)).toEqual(expected.map((_, i) => i));
        expect(pages).toHaveLength(Math.ceil(expected.length / limit));
        expect(pages.slice(0, -1).every((page) => page.items.length === limit)).toBe(true);
        expect(view).toMatchObject({ track_count: expected.length, duration_seconds: expected.length * 60 });
      }
    }
    // The first page is also /tracks without a cursor; a later one also comes with the playlist.
    const first = await call('GET', `/api/v1/playlists/${p}/tracks?limit=3`, reader);
    expect(titles(first.json<Page>().items.map((i) => i.id))).toEqual(['T0', 'T1', 'T2']);
    const cursor = encodeURIComponent(first.json<Page>().next_cursor!);
    const second = await call('GET', `/api/v1/playlists/${p}?limit=3&cursor=${cursor}`, reader);
    expect(second.json<View>()).toMatchObject({ track_count: forReader.length });
    expect(second.json<View>().tracks.items.map((i) => [title.get(i.id), i.position])).toEqual([
      ['T3', 3],
      ['T4', 4],
      ['T5', 5],
    ]);
  });

  it('edits after paging name positions as the pages numbered them; hidden entries keep their places', async () => {
    const p = await playlist();
    const { items, pages } = await walk(owner, p, 5);
    const at = (n: number) => ({ position: n, track_id: items[n]!.id });
    expect(titles([items[12]!.id])).toEqual(['T9']);
    const patch = (body: object) => call('PATCH', `/api/v1/playlists/${p}`, owner, body);

    const removed = await patch({ remove: [at(12)] });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await stored(p)).toEqual(
      'T0 P0 T1 T2 G0 T3 P1 T4 T5 T6 P2 G1 T7 T8 T0 P3 T10 T11 T12 T13'.split(' '),
    );

    // A page read before the edit does not lead on; the same position now holds another song.
    const stale = await call(
      'GET',
      `/api/v1/playlists/${p}/tracks?limit=5&cursor=${encodeURIComponent(pages[0]!.next_cursor!)}`,
      owner,
    );
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json<Problem>().detail).toBe(
      'The playlist changed after the previous page was read; read it again from its first page.',
    );
    const moved = await patch({ remove: [at(12)] });
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json<Problem>()).toMatchObject({
      detail:
        'The playlist changed since you read it: position 12 holds another track now. Read it again and retry.',
      errors: [{ path: '/remove/0/track_id', message: 'is not the track at this position now' }],
    });

    // Moved first: the hidden entry that followed it goes along.
    const again = (await walk(owner, p, 5)).items;
    expect(titles([again[3]!.id])).toEqual(['T2']);
    const up = await patch({ move: { position: 3, track_id: again[3]!.id, to: 0 } });
    expect(up.statusCode, up.body).toBe(200);
    expect(await stored(p)).toEqual(
      'T2 G0 T0 P0 T1 T3 P1 T4 T5 T6 P2 G1 T7 T8 T0 P3 T10 T11 T12 T13'.split(' '),
    );
    expect(titles(up.json<View>().tracks.items.map((i) => i.id)).slice(0, 3)).toEqual(['T2', 'T0', 'P0']);

    // Removed and one added at the end in one write: the hidden entry it led comes first.
    const last = (await walk(owner, p, 500)).items;
    const both = await patch({ remove: [{ position: 0, track_id: last[0]!.id }], add_track_ids: [id.T5] });
    expect(both.statusCode, both.body).toBe(200);
    const now = 'G0 T0 P0 T1 T3 P1 T4 T5 T6 P2 G1 T7 T8 T0 P3 T10 T11 T12 T13 T5'.split(' ');
    expect(await stored(p)).toEqual(now);

    // Every reader and Subsonic agree with the pages.
    const seen = now.filter((n) => !n.startsWith('G'));
    expect(titles((await walk(owner, p, 7)).items.map((i) => i.id))).toEqual(seen);
    expect(titles((await rest(owner, 'getPlaylist', { id: p })).playlist.entry!.map((e) => e.id))).toEqual(
      seen,
    );
    expect(titles((await walk(reader, p, 7)).items.map((i) => i.id))).toEqual(
      seen.filter((n) => n.startsWith('T')),
    );

    // Subsonic's indexes are the same positions: index 1 is P0 (the hidden G0 first is not counted).
    expect((await rest(owner, 'updatePlaylist', { playlistId: p, songIndexToRemove: '1' })).status).toBe(
      'ok',
    );
    expect((await stored(p)).slice(0, 3)).toEqual(['G0', 'T0', 'T1']);
  });

  it('answers bad paging and edit input with a 400 naming the parameter', async () => {
    const p = await playlist();
    const bad = async (url: string, path: string) => {
      const res = await call('GET', url, reader);
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      const problem = res.json<Problem>();
      expect(problem.errors?.[0]?.path, url).toBe(path);
      return problem.detail;
    };
    for (const limit of ['0', '501', 'ten', '1.5', '-1']) {
      expect(await bad(`/api/v1/playlists/${p}?limit=${limit}`, 'querystring:/limit')).toMatch(/limit/);
      await bad(`/api/v1/playlists/${p}/tracks?limit=${limit}`, 'querystring:/limit');
    }
    const forge = (text: string) => encodeURIComponent(Buffer.from(text).toString('base64url'));
    const when = new Date().toISOString();
    for (const cursor of [
      'nope',
      forge(`${when}|-1`),
      forge(`${when}|01`),
      forge(`${when}|1e3`),
      forge(`${when}|12345678`),
      forge(`${when}|${p}`),
      forge(`${when}|3|3`),
      forge(`2026-02-30T00:00:00.000Z|3`),
    ])
      expect(await bad(`/api/v1/playlists/${p}/tracks?cursor=${cursor}`, 'querystring:/cursor')).toBe(
        'The cursor is not one this API gave out; use next_cursor from the previous page.',
      );
    await bad(`/api/v1/playlists/${p}/tracks?cursor=`, 'querystring:/cursor');
    await bad(`/api/v1/playlists/${p}?cursor=nope`, 'querystring:/cursor');
    // A cursor past the end is an empty last page, not an error.
    const past = await call(
      'GET',
      `/api/v1/playlists/${p}/tracks?cursor=${forge(`${(await t.connections.prisma.playlist.findUniqueOrThrow({ where: { id: p } })).updatedAt.toISOString()}|9999`)}`,
      reader,
    );
    expect(past.json<Page>()).toEqual({ items: [], next_cursor: null });

    const patch = async (body: object, status: number, path: string) => {
      const res = await call('PATCH', `/api/v1/playlists/${p}`, owner, body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(status);
      const problem = res.json<Problem>();
      expect(problem.errors?.[0]?.path).toBe(path);
      return problem.detail;
    };
    expect(await patch({ remove: [{ position: 19, track_id: id.T0 }] }, 400, '/remove/0/position')).toBe(
      'Position 19 is past the end: the playlist shows you 19 tracks, positions 0 to 18.',
    );
    expect(await patch({ move: { position: 0, track_id: id.T0, to: 19 } }, 400, '/move/to')).toContain(
      'positions 0 to 18',
    );
    expect(await patch({ track_ids: [], move: { position: 0, track_id: id.T0, to: 1 } }, 400, '')).toBe(
      'Send one kind of change to the tracks at a time: track_ids (the whole new order), move, or remove and add_track_ids.',
    );
    await patch({ remove: [] }, 400, '/remove');
    await patch({ remove: [{ position: -1, track_id: id.T0 }] }, 400, '/remove/0/position');
    await patch({ remove: [{ position: 0 }] }, 400, '/remove/0/track_id');
    await patch({ move: { position: 0, track_id: id.T0 } }, 400, '/move/to');
    expect(await patch({ add_track_ids: [id.G0] }, 422, '/add_track_ids')).toBe(
      `This track id names no track you can play: ${id.G0}.`,
    );
    expect(await stored(p)).toEqual(ORDER);
  });

  it('holds at most 10,000 entries a playlist, saying so; Subsonic reads all 10,000 at once', async () => {
    const made = await call('POST', '/api/v1/playlists', owner, { name: 'Full', public: true });
    const p = made.json<{ id: string }>().id;
    await t.connections.prisma.playlistEntry.createMany({
      data: Array.from({ length: 10_000 }, (_, position) => ({
        playlistId: p,
        trackId: position % 2 ? id.T1! : id.P1!,
        position,
      })),
    });
    const view = (await call('GET', `/api/v1/playlists/${p}`, owner)).json<View>();
    expect(view).toMatchObject({ track_count: 10_000, duration_seconds: 600_000 });
    expect(view.tracks.items).toHaveLength(100);
    expect(view.tracks.next_cursor).not.toBeNull();
    const wide = (await call('GET', `/api/v1/playlists/${p}?limit=500`, reader)).json<View>();
    expect(wide).toMatchObject({ track_count: 5_000, duration_seconds: 300_000 });
    expect(wide.tracks.items).toHaveLength(500);
    expect(wide.tracks.items.at(-1)!.position).toBe(499);

    const more = await call('PATCH', `/api/v1/playlists/${p}`, owner, { add_track_ids: [id.T2] });
    expect(more.statusCode, more.body).toBe(400);
    expect(more.json<Problem>()).toMatchObject({
      detail: 'A playlist holds at most 10000 tracks; this one would hold 10001.',
      errors: [{ path: '/add_track_ids', message: 'must hold at most 10000 tracks' }],
    });
    expect(await rest(owner, 'updatePlaylist', { playlistId: p, songIdToAdd: id.T2! })).toMatchObject({
      status: 'failed',
      error: { code: 0, message: 'A playlist holds at most 10000 tracks; this one would hold 10001.' },
    });
    // Removing makes room again, by the positions the owner reads.
    const room = await call('PATCH', `/api/v1/playlists/${p}`, owner, {
      remove: [{ position: 9_999, track_id: id.T1 }],
      add_track_ids: [id.T2],
    });
    expect(room.statusCode, room.body).toBe(200);
    expect(await t.connections.prisma.playlistEntry.count({ where: { playlistId: p } })).toBe(10_000);

    const whole = await rest(owner, 'getPlaylist', { id: p });
    expect(whole.playlist.songCount).toBe(10_000);
    expect(whole.playlist.entry).toHaveLength(10_000);
    expect(whole.playlist.entry!.at(-1)!.id).toBe(id.T2);
    const theirs = await rest(reader, 'getPlaylist', { id: p });
    expect(theirs.playlist.entry).toHaveLength(5_000);
  });
});
