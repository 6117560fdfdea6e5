/**
 * "Private" means private at once (issue 30, item 6, the three decisions): once a track is made
 * private, its artwork and waveform at their random paths and its already-signed HLS links answer
 * 404 to everyone but its owner (and admins), even when the objects sit in the hot cache; the
 * owner's answers are never kept by shared caches. A password change revokes every Subsonic
 * client key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUrl } from '../src/music/services/secure-link.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';
import {
  createMusicTestApp,
  publishTestHls,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';
import { PASSWORD, signupUser, type TestUser } from './helpers/music-domain.js';

describe('private at once', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'own');
    other = await signupUser(t.app, 'oth');
  });
  afterAll(async () => t?.close());

  it('artwork, waveform and signed HLS links of a track made private stop at once for others', async () => {
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title: 'Soon private', visibility: 'public' },
    });
    const trackId = track.json().id as string;
    const versionId = await addReadyVersion(t.connections, trackId, owner.id, { artist: 'A', album: 'B' });
    await publishTestHls(
      t.connections.stores.transcodes,
      versionId as `${string}-${string}-${string}-${string}-${string}`,
    );
    await t.connections.stores.images.put(
      `${versionId}/cover-600.jpg`,
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]),
    );
    await t.connections.stores.waveforms.put(`${versionId}/waveform.json`, '{"version":2,"data":[]}');
    const hls = signedUrl(
      `/media/hls/${versionId}/master.m3u8`,
      TEST_SECURE_LINK_SECRET,
      3600,
      Date.now() / 1000,
    );
    const urls = [hls, `/images/${versionId}/cover-600.jpg`, `/waveforms/${versionId}/waveform.json`];
    const get = (url: string, who?: TestUser) => t.app.inject({ url, headers: who?.headers ?? {} });

    // Public: anyone, and shared caches may keep the answers; the hot cache now holds them.
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toMatch(/^public/);
    }
    const made = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/tracks/${trackId}`,
      headers: owner.headers,
      payload: { visibility: 'private' },
    });
    expect(made.statusCode).toBe(200);
    for (const url of urls) {
      expect((await get(url)).statusCode, `anonymous ${url}`).toBe(404);
      expect((await get(url, other)).statusCode, `other ${url}`).toBe(404);
      const mine = await get(url, owner);
      expect(mine.statusCode, `owner ${url}`).toBe(200);
      expect(mine.headers['cache-control'], url).toBe('private, no-store');
    }
    // Unlisted again: readable by link, as the track is.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/tracks/${trackId}`,
      headers: owner.headers,
      payload: { visibility: 'unlisted' },
    });
    for (const url of urls) expect((await get(url)).statusCode, url).toBe(200);
  });

  it('the edge’s check (GET /media/access/<media URI>) gives the media route’s verdict, no body', async () => {
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title: 'Checked', visibility: 'public' },
    });
    const trackId = track.json().id as string;
    const versionId = await addReadyVersion(t.connections, trackId, owner.id, { artist: 'A', album: 'B' });
    await publishTestHls(
      t.connections.stores.transcodes,
      versionId as `${string}-${string}-${string}-${string}-${string}`,
    );
    const path = `/media/hls/${versionId}/r0/index.m3u8`;
    const media = signedUrl(path, TEST_SECURE_LINK_SECRET, 3600, Date.now() / 1000);
    const check = (url: string, who?: TestUser) =>
      t.app.inject({ url: `/media/access${url}`, headers: who?.headers ?? {} });
    // Served once: the hot cache holds the playlist, and the check still decides.
    expect((await t.app.inject({ url: media })).statusCode).toBe(200);
    const allowed = await check(media);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.body).toBe('');
    expect(allowed.headers['cache-control']).toBe('public, max-age=3600');
    expect(
      (await check(signedUrl(path, 'another-secret-0123456789', 3600, Date.now() / 1000))).statusCode,
    ).toBe(403);
    expect((await check(signedUrl(path, TEST_SECURE_LINK_SECRET, -60, Date.now() / 1000))).statusCode).toBe(
      410,
    );
    expect((await check(media.replace('/media/hls/', '/media/hls/../hls/x/../'))).statusCode).toBe(204);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/tracks/${trackId}`,
      headers: owner.headers,
      payload: { visibility: 'private' },
    });
    expect((await check(media)).statusCode).toBe(404);
    expect((await check(media, other)).statusCode).toBe(404);
    const mine = await check(media, owner);
    expect(mine.statusCode).toBe(204);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    // Deleted: its rows and objects are gone, and neither the check nor the hot cache serves it.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/tracks/${trackId}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await check(media, owner)).statusCode).toBe(404);
    expect((await t.app.inject({ url: media })).statusCode).toBe(404);
  });

  it('a password change revokes every Subsonic client key', async () => {
    const who = await signupUser(t.app, 'pwd');
    const keys = await clientKeys(t.app, [who]);
    const key = encodeURIComponent(keys.get(who.id)!);
    const ping = async () =>
      (await t.app.inject({ url: `/rest/ping?f=json&apiKey=${key}` })).json()['subsonic-response'];
    expect((await ping()).status).toBe('ok');
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: who.headers,
      payload: { current_password: PASSWORD, new_password: 'a brand new passphrase 9' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().revoked_client_keys).toBe(1);
    expect(await ping()).toMatchObject({ status: 'failed', error: { code: 44 } });
    const listed = await t.app.inject({
      url: '/api/v1/me/client-keys',
      headers: { authorization: `Bearer ${changed.json().token}` },
    });
    expect(listed.json().items).toEqual([]);
  });
});
