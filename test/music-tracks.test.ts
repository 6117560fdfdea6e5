/** Tracks and versions over HTTP: the upload-to-version flow, visibility, ownership, pagination. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_QUEUES, versionJobId } from '../src/music/jobs/queues.js';
import { PrismaTrackRepository } from '../src/music/repositories/track-repository.js';
import { verifySecureLink } from '../src/music/services/secure-link.js';
import { createMusicTestApp, TEST_SECURE_LINK_SECRET, type MusicTestApp } from './helpers/music-app.js';
import {
  apiCaller,
  makeTestFlac,
  signupUser,
  TEST_TAGS,
  uploadViaApi,
  type TestUser,
} from './helpers/music-domain.js';

describe('tracks and versions', () => {
  let t: MusicTestApp;
  let work: string;
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'tracks-'));
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'owner');
    other = await signupUser(t.app, 'other');
  });
  afterAll(async () => {
    await t.close();
    await rm(work, { recursive: true, force: true });
  });

  const call = apiCaller(() => t.app);
  const createTrack = async (who: TestUser, body: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/v1/tracks', who, { title: 'A song', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  it('versions added at the same instant are all accepted, numbered one after another', async () => {
    const trackId = await createTrack(owner);
    const flac = await makeTestFlac(work, 2, 44100);
    // Eight uploads (one upload backs one version: music-version-claims.test.ts).
    const assetIds: string[] = [];
    for (let i = 0; i < 8; i++) assetIds.push(await uploadViaApi(t.app, owner, flac));
    const added = await Promise.all(
      assetIds.map((assetId) =>
        call('POST', `/api/v1/tracks/${trackId}/versions`, owner, { asset_id: assetId }),
      ),
    );
    expect(added.map((r) => r.statusCode)).toEqual(Array(8).fill(202));
    expect(added.map((r) => r.json().number as number).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it('upload -> track -> version: pending, its flow in Redis with the right payload, tags shown and editable', async () => {
    const assetId = await uploadViaApi(t.app, owner, await makeTestFlac(work, 30, 48000));
    const trackId = await createTrack(owner, { description: 'line one\nline two' });
    const added = await call('POST', `/api/v1/tracks/${trackId}/versions`, owner, { asset_id: assetId });
    expect(added.statusCode, added.body).toBe(202);
    const version = added.json();
    expect(version).toMatchObject({
      number: 1,
      status: 'pending',
      duration_ms: 30_000,
      codec: 'flac',
      hls_url: null,
    });
    expect(version.tags).toMatchObject({ title: TEST_TAGS.TITLE, artist: TEST_TAGS.ARTIST, track_number: 3 });

    const connection = t.connections.redis.duplicate();
    try {
      const expected = { versionId: version.id, trackId, assetId, sourceKey: `${owner.id}/${assetId}` };
      for (const name of MEDIA_QUEUES) {
        const queue = new Queue(name, { connection, prefix: t.config.queuePrefix });
        const job = await queue.getJob(versionJobId(name, version.id));
        expect(job?.data, name).toEqual(expected);
        expect(await job?.getState()).toBe('waiting');
        await queue.close();
      }
      const finalize = new Queue('version-finalize', { connection, prefix: t.config.queuePrefix });
      const parent = await finalize.getJob(versionJobId('version-finalize', version.id));
      expect(parent?.data).toEqual({ versionId: version.id, trackId });
      expect(await parent?.getState()).toBe('waiting-children');
      await finalize.close();
    } finally {
      connection.disconnect();
    }

    const shown = await call('GET', `/api/v1/tracks/${trackId}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      id: trackId,
      description: 'line one\nline two',
      current_version: null,
      processing: { version_id: version.id, status: 'pending' },
      tags: { album: TEST_TAGS.ALBUM, musicbrainz_album_id: TEST_TAGS.MUSICBRAINZ_ALBUMID },
    });
    const edited = await call('PATCH', `/api/v1/tracks/${trackId}`, owner, {
      tags: { album: 'Renamed', year: null },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().tags).toMatchObject({ album: 'Renamed', year: null, artist: TEST_TAGS.ARTIST });

    // The pipeline marks it ready: the answer carries signed media URLs and loudness.
    await t.connections.prisma.trackVersion.update({
      where: { id: version.id },
      data: {
        status: 'ready',
        hlsKey: `${version.id}`,
        progressiveKey: `${version.id}/full.m4a`,
        waveformKey: `${version.id}.json`,
        artworkKey: `${version.id}/500.jpg`,
        loudnessIntegrated: -14.2,
        loudnessRange: 6.1,
        truePeak: -1.0,
        replayGain: -3.8,
      },
    });
    const ready = (await call('GET', `/api/v1/tracks/${trackId}`)).json();
    expect(ready.processing).toBeNull();
    expect(ready.current_version).toMatchObject({
      id: version.id,
      loudness: { integrated_lufs: -14.2, range_lu: 6.1, true_peak_dbtp: -1.0, replay_gain_db: -3.8 },
      waveform_url: `/waveforms/${version.id}.json`,
      artwork_url: `/images/${version.id}/500.jpg`,
    });
    const url = new URL(ready.current_version.hls_url, 'http://x');
    expect(url.pathname).toBe(`/media/hls/${version.id}/master.m3u8`);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(3590);
    expect(
      verifySecureLink({
        uri: url.pathname,
        sig: url.searchParams.get('sig') ?? undefined,
        expires: String(expires),
        secret: TEST_SECURE_LINK_SECRET,
        nowSeconds: Date.now() / 1000,
      }),
    ).toBe('valid');
    const versions = await call('GET', `/api/v1/tracks/${trackId}/versions`);
    expect(versions.json().items).toEqual([
      expect.objectContaining({ id: version.id, status: 'ready', error: null }),
    ]);

    // Deleting the track deletes the original too.
    expect((await call('DELETE', `/api/v1/tracks/${trackId}`, owner)).statusCode).toBe(204);
    expect(await t.connections.stores.originals.head(`${owner.id}/${assetId}`)).toBeUndefined();
    expect((await call('GET', `/api/v1/tracks/${trackId}`)).statusCode).toBe(404);
  });

  it("someone else's track: 403 to change when visible, 404 when private; unlisted reachable but not listed", async () => {
    const pub = await createTrack(owner, { title: 'Public one' });
    const priv = await createTrack(owner, { title: 'Private one', visibility: 'private' });
    const unl = await createTrack(owner, { title: 'Unlisted one', visibility: 'unlisted' });

    expect((await call('PATCH', `/api/v1/tracks/${pub}`, other, { title: 'Mine now' })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/v1/tracks/${pub}`, other)).statusCode).toBe(403);
    expect((await call('PATCH', `/api/v1/tracks/${priv}`, other, { title: 'Mine now' })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/api/v1/tracks/${priv}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tracks/${priv}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tracks/${priv}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tracks/${priv}/versions`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tracks/${priv}`, owner)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/tracks/${unl}`)).statusCode).toBe(200);
    expect((await call('POST', `/api/v1/tracks/${pub}/versions`, other, { asset_id: pub })).statusCode).toBe(
      403,
    );

    const listed = (await call('GET', `/api/v1/users/${owner.handle}?limit=100`))
      .json()
      .tracks.items.map((x: { id: string }) => x.id);
    expect(listed).toContain(pub);
    expect(listed).not.toContain(priv);
    expect(listed).not.toContain(unl);

    // Non-UUID ids are 404; bad bodies name the field; unknown asset is 404.
    expect((await call('GET', '/api/v1/tracks/not-a-uuid')).statusCode).toBe(404);
    expect((await call('PATCH', '/api/v1/tracks/123', owner, { title: 'x' })).statusCode).toBe(404);
    const bad = await call('POST', '/api/v1/tracks', owner, {
      title: '',
      visibility: 'secret',
      colour: 'red',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['/title', '/visibility', '/colour']),
    );
    expect((await call('POST', '/api/v1/tracks', owner, { title: 'tab\u0007bell' })).statusCode).toBe(400);
    expect((await call('PATCH', `/api/v1/tracks/${pub}`, owner, { tags: { album: 'x' } })).statusCode).toBe(
      409,
    );
    const noAsset = await call('POST', `/api/v1/tracks/${pub}/versions`, owner, {
      asset_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(noAsset.statusCode).toBe(404);
    expect((await call('POST', '/api/v1/tracks', undefined, { title: 'x' })).statusCode).toBe(401);

    // An admin may change and delete any track, private ones too.
    await t.connections.prisma.user.update({ where: { id: other.id }, data: { role: 'admin' } });
    const admin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: other.handle, password: 'a long enough passphrase' },
    });
    const adminUser = { ...other, headers: { authorization: `Bearer ${admin.json().token}` } };
    expect(
      (await call('PATCH', `/api/v1/tracks/${priv}`, adminUser, { title: 'Moderated' })).statusCode,
    ).toBe(200);
    expect((await call('DELETE', `/api/v1/tracks/${priv}`, adminUser)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/tracks/${priv}`, owner)).statusCode).toBe(404);
  });

  it('lists 250 tracks 100 at a time, each exactly once in a stable order, with a track created between pages', async () => {
    const lister = await signupUser(t.app, 'many');
    // One statement: all 250 share one created_at, so the id tie-break carries the order.
    await t.connections.prisma.track.createMany({
      data: Array.from({ length: 250 }, (_, i) => ({ title: `T${i}`, ownerUserId: lister.id })),
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(
        'GET',
        `/api/v1/users/${lister.handle}?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.statusCode).toBe(200);
      const page = res.json().tracks;
      seen.push(...page.items.map((x: { id: string }) => x.id));
      cursor = page.next_cursor;
      if (++pages === 1) await createTrack(lister, { title: 'Created between pages' });
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    const rows = await t.connections.prisma.track.findMany({
      where: { ownerUserId: lister.id, title: { startsWith: 'T' } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it('reads a track and every version in one statement, exactly as Prisma reads them', async () => {
    const trackId = await createTrack(owner, { visibility: 'private' });
    const asset = await t.connections.prisma.asset.create({
      data: {
        ownerUserId: owner.id,
        objectKey: `${owner.id}/${trackId}`,
        filename: 'x.flac',
        contentType: 'audio/flac',
        size: 1n,
        status: 'uploaded',
      },
    });
    const full = await t.connections.prisma.trackVersion.create({
      data: {
        trackId,
        number: 1,
        assetId: asset.id,
        status: 'ready',
        durationMs: 215_000,
        loudnessIntegrated: -14.25,
        loudnessRange: 6.1,
        truePeak: -1.03,
        replayGain: -3.75,
        hlsKey: 'v/master.m3u8',
        progressiveKey: 'v/progressive.m4a',
        waveformKey: 'v/waveform.json',
        artworkKey: 'v/cover.jpg',
        codec: 'flac',
        bitRate: 1_000_000,
        channels: 2,
        sampleRate: 44_100,
        tagTitle: 'Ünïcode "title"',
        tagTrackNumber: 3,
        tagYear: 1999,
        tagDate: '1999-04-01',
        mbRecordingId: '0b9b1a3c-8f2e-4b8a-9d5e-3f1c2a4b5c6d',
      },
    });
    await t.connections.prisma.trackVersion.create({
      data: { trackId, number: 2, assetId: asset.id, status: 'failed', error: 'ffmpeg: bad input' },
    });
    await t.connections.prisma.track.update({ where: { id: trackId }, data: { currentVersionId: full.id } });
    const tracks = new PrismaTrackRepository(t.connections.prisma);
    expect(await tracks.findWithVersions(trackId)).toEqual({
      track: await tracks.findById(trackId),
      versions: await tracks.listVersions(trackId),
    });
    expect((await tracks.findWithVersions(await createTrack(owner)))?.versions).toEqual([]);
    expect(await tracks.findWithVersions('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    // Private: its owner reads it, anyone else gets the same 404 as for no track at all.
    expect((await call('GET', `/api/v1/tracks/${trackId}`, owner)).json().current_version.id).toBe(full.id);
    expect((await call('GET', `/api/v1/tracks/${trackId}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tracks/${trackId}`)).statusCode).toBe(404);
  });
});
