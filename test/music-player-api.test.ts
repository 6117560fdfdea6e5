/**
 * What the player reads and writes, over HTTP: track comments read under the general limit (not
 * the comments scope), a comment's version and its bounds, editing by the author only; a track's
 * context and counts; my tracks with private ones; choosing the current version; search, artist,
 * album and new uploads over the Subsonic library, public tracks plus the caller's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../src/core/rate-limit/memory-store.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { apiCaller, signupUser, type TestUser } from './helpers/music-domain.js';
import { addReadyVersion } from './helpers/library-rows.js';

describe('player API', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let other: TestUser;
  const now = Date.now();
  beforeAll(async () => {
    // The seed's limits on a clock that stands still: only bursts are admitted.
    t = await createMusicTestApp(
      { RATE_LIMITS: 'on' },
      { rateLimitStore: new MemoryRateLimitStore(() => now) },
    );
    owner = await signupUser(t.app, 'own');
    other = await signupUser(t.app, 'oth');
  });
  afterAll(async () => t.close());

  // Each test call from its own address, unless it is about one address.
  const call = apiCaller(() => t.app, '10.1');
  const track = async (visibility: string, title = 'Song') =>
    (await call('POST', '/api/v1/tracks', owner, { title, visibility })).json().id as string;

  it('reads a track’s comments under the general limit: 20 reads from one address, where the comments scope admits 6', async () => {
    const id = await track('public');
    await addReadyVersion(t.connections, id, owner.id, { artist: 'A', album: 'B' });
    const from = (url: string) => t.app.inject({ url, remoteAddress: '10.9.9.9' });
    for (let i = 0; i < 15; i++)
      expect((await from(`/api/v1/tracks/${id}/comments`)).statusCode, `read ${i}`).toBe(200);
    // The old read, still served for old clients, is a read too: not in the comments scope's 6.
    for (let i = 0; i < 5; i++)
      expect((await from(`/api/v1/comments?track_id=${id}`)).statusCode, `old read ${i}`).toBe(200);
  });

  it('a comment keeps its version, stays within it, and only its author edits it', async () => {
    const id = await track('public');
    const v1 = await addReadyVersion(t.connections, id, owner.id, { artist: 'A', album: 'B' });
    const made = await call('POST', '/api/v1/comments', other, {
      track_id: id,
      body: 'nice',
      position_ms: 5000,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ version_id: v1, position_ms: 5000, edited_at: null });
    const past = await call('POST', '/api/v1/comments', other, {
      track_id: id,
      body: 'x',
      position_ms: 61_000,
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().errors).toEqual([
      { path: '/position_ms', message: 'must be within the track: 0:00 to 1:00' },
    ]);
    const foreign = await call('POST', '/api/v1/comments', other, {
      track_id: id,
      body: 'x',
      version_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0].path).toBe('/version_id');
    const v2 = await addReadyVersion(t.connections, id, owner.id, { artist: 'A', album: 'B' });
    const onV2 = await call('POST', '/api/v1/comments', owner, {
      track_id: id,
      body: 'v2',
      position_ms: 1000,
    });
    expect(onV2.json().version_id).toBe(v2);

    const cid = made.json().id as string;
    expect((await call('PATCH', `/api/v1/comments/${cid}`, owner, { body: 'mine now' })).statusCode).toBe(
      403,
    );
    const edited = await call('PATCH', `/api/v1/comments/${cid}`, other, { body: 'very nice' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().edited_at).toEqual(expect.any(String));
    const blank = await call('PATCH', `/api/v1/comments/${cid}`, other, { body: '   ' });
    expect(blank.json().errors).toEqual([{ path: '/body', message: 'must not be blank' }]);
    const list = (await call('GET', `/api/v1/tracks/${id}/comments`)).json();
    expect(list.items.map((c: { body: string; version_id: string }) => [c.body, c.version_id])).toEqual([
      ['very nice', v1],
      ['v2', v2],
    ]);
  });

  it('a track answers with its owner, artist, album and counts; the owner chooses the current version', async () => {
    const id = await track('public');
    const v1 = await addReadyVersion(t.connections, id, owner.id, {
      artist: 'Nina Vale',
      album: 'Night Lines',
    });
    await call('POST', '/api/v1/comments', other, { track_id: id, body: 'one' });
    const page = (await call('GET', `/api/v1/tracks/${id}`)).json();
    expect(page.owner).toEqual({ handle: owner.handle, display_name: owner.handle });
    expect(page.artist).toEqual({ id: expect.stringMatching(/^ar-/), name: 'Nina Vale' });
    expect(page.album).toEqual({ id: expect.stringMatching(/^al-/), name: 'Night Lines' });
    expect(page.counts).toEqual({ plays: 0, comments: 1 });
    const v2 = await addReadyVersion(t.connections, id, owner.id, {
      artist: 'Nina Vale',
      album: 'Night Lines',
    });
    expect((await call('GET', `/api/v1/tracks/${id}`)).json().current_version.id).toBe(v2);
    const bad = await call('PATCH', `/api/v1/tracks/${id}`, owner, { current_version_id: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).not.toMatch(/\^|pattern/);
    const notMine = await call('PATCH', `/api/v1/tracks/${id}`, other, { current_version_id: v1 });
    expect(notMine.statusCode).toBe(403);
    const chosen = await call('PATCH', `/api/v1/tracks/${id}`, owner, { current_version_id: v1 });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect((await call('GET', `/api/v1/tracks/${id}`)).json().current_version.id).toBe(v1);
  });

  it('my tracks: every track of mine with its state, private ones included; nobody else’s', async () => {
    const hidden = await track('private', 'Hidden one');
    const mine = (await call('GET', '/api/v1/me/tracks?limit=100', owner)).json();
    const row = mine.items.find((x: { id: string }) => x.id === hidden);
    expect(row).toMatchObject({
      visibility: 'private',
      title: 'Hidden one',
      version_count: 0,
      current_version: null,
    });
    expect((await call('GET', '/api/v1/me/tracks', other)).json().items).toEqual([]);
    expect((await call('GET', '/api/v1/me/tracks')).statusCode).toBe(401);
  });

  it('search, artist, album and new uploads: public tracks and the caller’s own, nobody else’s private ones', async () => {
    const word = `zq${Date.now().toString(36)}`;
    const open = await track('public', `${word} open`);
    const secret = await track('private', `${word} secret`);
    await addReadyVersion(t.connections, open, owner.id, {
      title: `${word} open`,
      artist: `${word} Band`,
      album: `${word} LP`,
    });
    await addReadyVersion(t.connections, secret, owner.id, {
      title: `${word} secret`,
      artist: `${word} Band`,
      album: `${word} LP`,
    });
    const anonymous = (await call('GET', `/api/v1/search?q=${word}`)).json();
    expect(anonymous.tracks.map((s: { id: string }) => s.id)).toEqual([open]);
    expect(anonymous.artists.map((a: { name: string }) => a.name)).toEqual([`${word} Band`]);
    expect(anonymous.albums.map((a: { name: string }) => a.name)).toEqual([`${word} LP`]);
    const own = (await call('GET', `/api/v1/search?q=${word}`, owner)).json();
    expect(own.tracks.map((s: { id: string }) => s.id).sort()).toEqual([open, secret].sort());
    const artist = (await call('GET', `/api/v1/artists/${anonymous.artists[0].id}`)).json();
    expect(artist).toMatchObject({
      name: `${word} Band`,
      albums: [{ name: `${word} LP` }],
      tracks: [{ id: open }],
    });
    const album = (await call('GET', `/api/v1/albums/${anonymous.albums[0].id}`)).json();
    expect(album).toMatchObject({ name: `${word} LP`, artist: `${word} Band`, tracks: [{ id: open }] });
    expect((await call('GET', '/api/v1/artists/ar-nothing')).statusCode).toBe(404);
    const fresh = (await call('GET', '/api/v1/new?limit=100')).json();
    expect(fresh.items.map((s: { id: string }) => s.id)).toContain(open);
    expect(fresh.items.map((s: { id: string }) => s.id)).not.toContain(secret);
    expect((await call('GET', '/api/v1/search?q=%20%2B')).json()).toEqual({
      tracks: [],
      albums: [],
      artists: [],
    });
    expect((await call('GET', '/api/v1/search')).json().errors).toEqual([
      { path: 'querystring:/q', message: 'is required' },
    ]);
  });
});
