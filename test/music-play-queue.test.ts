/**
 * The saved play queue over REST (/api/v1/me/play-queue) is Subsonic's (savePlayQueue,
 * getPlayQueue): one row per user, so a queue saved by a Subsonic app is the one the web player
 * reads and the reverse; reading drops the tracks the caller may not play now; bad bodies are 4xx
 * answers that name what is wrong, and leave the saved queue as it was. Real PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, spreadAddress, type TestUser } from './helpers/music-domain.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';

/** The parts of Subsonic answers these tests read. */
interface SubsonicDoc {
  status: string;
  error?: { code: number; message: string };
  playQueue?: { current?: string; position: number; changedBy: string; entry: { id: string }[] };
  playQueueByIndex?: { currentIndex?: number; entry: { id: string }[] };
}

const URL_ = '/api/v1/me/play-queue';

describe('the play queue over REST and Subsonic', () => {
  let t: MusicTestApp;
  let me: TestUser;
  let other: TestUser;
  let keys: Map<string, string>;
  const songs: Record<'a' | 'b' | 'c' | 'mine' | 'theirsPrivate', string> = {
    a: '',
    b: '',
    c: '',
    mine: '',
    theirsPrivate: '',
  };

  const call = (method: 'GET' | 'PUT', who: TestUser | undefined, payload?: unknown, agent?: string) =>
    t.app.inject({
      method,
      url: URL_,
      remoteAddress: spreadAddress('10.7'),
      headers: { ...(who ? who.headers : {}), ...(agent ? { 'user-agent': agent } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

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
    t = await createMusicTestApp();
    me = await signupUser(t.app, 'pq');
    other = await signupUser(t.app, 'pqo');
    keys = await clientKeys(t.app, [me, other]);
    const make = async (who: TestUser, title: string, visibility: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/tracks',
        headers: who.headers,
        remoteAddress: spreadAddress('10.9'),
        payload: { title, visibility },
      });
      const id = res.json<{ id: string }>().id;
      await addReadyVersion(t.connections, id, who.id, { title, artist: `Band ${title}`, album: 'Queue LP' });
      return id;
    };
    songs.a = await make(other, 'Qa', 'public');
    songs.b = await make(other, 'Qb', 'public');
    songs.c = await make(other, 'Qc', 'public');
    songs.mine = await make(me, 'Qmine', 'private');
    songs.theirsPrivate = await make(other, 'Qhidden', 'private');
  });
  afterAll(async () => t.close());

  it('a queue put over REST is the one getPlayQueue answers, and the one GET reads back', async () => {
    const put = await call(
      'PUT',
      me,
      { track_ids: [songs.a, songs.mine, songs.b], current_id: songs.mine, position_ms: 61_500 },
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.headers['cache-control']).toBe('private, no-store');
    const saved = put.json();
    expect(saved).toMatchObject({
      track_ids: [songs.a, songs.mine, songs.b],
      current_id: songs.mine,
      current_index: 1,
      position_ms: 61_500,
      changed_by: 'Chrome on Linux',
    });
    expect(Date.parse(saved.changed_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(saved.tracks.map((x: { id: string; title: string }) => [x.id, x.title])).toEqual([
      [songs.a, 'Qa'],
      [songs.mine, 'Qmine'],
      [songs.b, 'Qb'],
    ]);
    expect((await call('GET', me)).json()).toEqual(saved);

    const sub = await rest(me, 'getPlayQueue');
    expect(sub.status).toBe('ok');
    expect(sub.playQueue).toMatchObject({
      current: songs.mine,
      position: 61_500,
      changedBy: 'Chrome on Linux',
    });
    expect(sub.playQueue!.entry.map((e) => e.id)).toEqual([songs.a, songs.mine, songs.b]);

    // A repeated track: current_index says which of its places is current.
    const twice = await call('PUT', me, {
      track_ids: [songs.a, songs.b, songs.a],
      current_index: 2,
      current_id: songs.a,
      client: 'Living room',
    });
    expect(twice.json()).toMatchObject({ current_index: 2, current_id: songs.a, changed_by: 'Living room' });
    expect((await rest(me, 'getPlayQueueByIndex')).playQueueByIndex).toMatchObject({ currentIndex: 2 });
  });

  it('a queue saved by a Subsonic app is the one the REST API reads', async () => {
    const saved = await rest(me, 'savePlayQueue', {
      id: [songs.c, songs.a, songs.b],
      current: songs.a,
      position: '12345',
      c: 'Symfonium',
    });
    expect(saved.status).toBe('ok');
    const read = (await call('GET', me)).json();
    expect(read).toMatchObject({
      track_ids: [songs.c, songs.a, songs.b],
      current_id: songs.a,
      current_index: 1,
      position_ms: 12_345,
      changed_by: 'Symfonium',
    });
    expect(read.tracks[0]).toMatchObject({ id: songs.c, title: 'Qc', artist_ref: { name: 'Band Qc' } });
  });

  it('reading drops the tracks the caller may not play now, as getPlayQueue does', async () => {
    await call('PUT', me, { track_ids: [songs.a, songs.b, songs.c], current_id: songs.b, position_ms: 5000 });
    const hide = async (id: string, visibility: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/tracks/${id}`,
        headers: other.headers,
        remoteAddress: spreadAddress('10.9'),
        payload: { visibility },
      });
    expect((await hide(songs.b, 'private')).statusCode).toBe(200);
    try {
      const read = (await call('GET', me)).json();
      expect(read).toMatchObject({
        track_ids: [songs.a, songs.c],
        current_id: null,
        current_index: null,
        position_ms: 0,
      });
      expect(read.tracks.map((x: { id: string }) => x.id)).toEqual([songs.a, songs.c]);
      const sub = (await rest(me, 'getPlayQueue')).playQueue!;
      expect(sub.entry.map((e) => e.id)).toEqual([songs.a, songs.c]);
      // Subsonic reads it by the same rule: the hidden current song is no current entry, at no index.
      expect(sub).toMatchObject({ position: 0 });
      expect(sub.current).toBeUndefined();
      const byIndex = (await rest(me, 'getPlayQueueByIndex')).playQueueByIndex!;
      expect(byIndex.entry.map((e) => e.id)).toEqual([songs.a, songs.c]);
      expect(byIndex.currentIndex).toBeUndefined();
      // Its owner still reads all of it in their own queue.
      await call('PUT', other, { track_ids: [songs.b], current_id: songs.b });
      expect((await call('GET', other)).json().track_ids).toEqual([songs.b]);
    } finally {
      await hide(songs.b, 'public');
    }
    // Public again: back in the queue, where it was.
    expect((await call('GET', me)).json()).toMatchObject({
      track_ids: [songs.a, songs.b, songs.c],
      current_id: songs.b,
      position_ms: 5000,
    });
  });

  it('refuses bad bodies with a 4xx that names what is wrong; the saved queue stays as it was', async () => {
    await call('PUT', me, { track_ids: [songs.a, songs.b], current_id: songs.a, position_ms: 1000 });
    const before = (await call('GET', me)).json();
    const bad = async (payload: unknown, status: number) => {
      const res = await call('PUT', me, payload);
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 200)} → ${res.body.slice(0, 300)}`).toBe(
        status,
      );
      return res.json<{ detail: string; errors?: { path: string; message: string }[] }>();
    };
    const missing = randomUUID();
    const unknown = await bad({ track_ids: [songs.a, missing, 'nope'] }, 422);
    expect(unknown.detail).toBe(
      `These track ids name no track you can play: ${missing}, nope. Take them off the queue and save it again.`,
    );
    // Another user's private track is not told apart from one that does not exist.
    expect((await bad({ track_ids: [songs.theirsPrivate] }, 422)).detail).toContain(songs.theirsPrivate);
    const tooMany = await bad({ track_ids: Array.from({ length: 10_001 }, () => songs.a) }, 400);
    expect(tooMany.errors?.[0]?.path).toBe('/track_ids');
    expect((await bad({ track_ids: [songs.a], position_ms: -1 }, 400)).errors?.[0]?.path).toBe(
      '/position_ms',
    );
    expect((await bad({ track_ids: [songs.a], position_ms: 1.5 }, 400)).errors?.[0]?.path).toBe(
      '/position_ms',
    );
    for (const wrong of [
      { track_ids: songs.a },
      { track_ids: [42] },
      { track_ids: [songs.a], position_ms: '5' },
      { track_ids: [songs.a], current_index: -1 },
      { track_ids: [songs.a], client: 5 },
      { track_ids: [songs.a], client: 'tab\there' },
      { track_ids: [songs.a], shuffle: true },
      {},
    ])
      await bad(wrong, 400);
    expect((await bad({ track_ids: [songs.a], current_id: songs.b }, 400)).detail).toBe(
      'current_id must be one of the queued track_ids (or left out).',
    );
    expect((await bad({ track_ids: [songs.a], current_index: 1 }, 400)).detail).toBe(
      'current_index must be 0 to 0: the queue holds 1 track.',
    );
    expect(
      (await bad({ track_ids: [songs.a, songs.b], current_index: 1, current_id: songs.a }, 400)).errors,
    ).toEqual([{ path: '/current_index', message: 'must be a place of current_id' }]);
    expect((await call('GET', me)).json()).toEqual(before);
    expect((await call('GET', undefined)).statusCode).toBe(401);
    expect((await call('PUT', undefined, { track_ids: [] })).statusCode).toBe(401);
    // Subsonic keeps the same bound on the same row.
    const form = new URLSearchParams({ apiKey: keys.get(me.id)!, f: 'json', c: 'x' });
    for (let i = 0; i <= 10_000; i++) form.append('id', songs.a);
    const subTooMany = await t.app.inject({
      method: 'POST',
      url: '/rest/savePlayQueue.view',
      remoteAddress: spreadAddress('10.8'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(subTooMany.json()['subsonic-response']).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining('a play queue holds at most 10000 songs') },
    });
    expect((await call('GET', me)).json()).toEqual(before);
  });

  it('an empty queue clears the saved one, for both APIs', async () => {
    await call('PUT', me, { track_ids: [songs.a] });
    const cleared = await call('PUT', me, { track_ids: [] });
    expect(cleared.statusCode).toBe(200);
    const empty = {
      track_ids: [],
      current_id: null,
      current_index: null,
      position_ms: 0,
      changed_at: null,
      changed_by: null,
      tracks: [],
    };
    expect(cleared.json()).toEqual(empty);
    expect((await call('GET', me)).json()).toEqual(empty);
    expect((await rest(me, 'getPlayQueue')).playQueue).toBeUndefined();
  });
});
