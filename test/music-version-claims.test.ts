/**
 * An upload backs one version, and an account has a bounded number of versions in the media
 * pipeline at once (services/track-service.ts VERSION_LIMITS): the same upload added again, or
 * twenty times at once to two tracks, makes one version and one flow; the others are 409s naming
 * the version it became. The partial unique index track_versions_one_per_upload holds it in the
 * database too. Past the bound, an add is a 429 with Retry-After until one of them is done.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION_LIMITS } from '../src/music/services/track-service.js';
import { addReadyVersion } from './helpers/library-rows.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { apiCaller, makeTestFlac, signupUser, uploadViaApi, type TestUser } from './helpers/music-domain.js';

describe('what one upload and one account may put in the media pipeline', () => {
  let t: MusicTestApp;
  let work: string;
  let flac: Buffer;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'claims-'));
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    flac = await makeTestFlac(work, 2, 8000);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const call = apiCaller(() => t.app);
  const createTrack = async (who: TestUser, title: string) => {
    const res = await call('POST', '/api/v1/tracks', who, { title });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const addVersion = (who: TestUser, trackId: string, assetId: string) =>
    call('POST', `/api/v1/tracks/${trackId}/versions`, who, { asset_id: assetId });
  const versionsOf = (assetId: string) => t.connections.prisma.trackVersion.count({ where: { assetId } });

  it('makes one version of an upload added twenty times at once to two tracks; the rest are 409s naming it', async () => {
    const owner = await signupUser(t.app, 'once');
    const assetId = await uploadViaApi(t.app, owner, flac);
    const tracks = [await createTrack(owner, 'First home'), await createTrack(owner, 'Second home')];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => addVersion(owner, tracks[i % 2]!, assetId)),
    );
    const made = answers.filter((r) => r.statusCode === 202);
    expect(made).toHaveLength(1);
    const version = made[0]!.json<{ id: string; number: number }>();
    const home = await t.connections.prisma.trackVersion.findUniqueOrThrow({
      where: { id: version.id },
      include: { track: true },
    });
    for (const refused of answers.filter((r) => r !== made[0])) {
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({
        detail: `This upload is already version 1 of the track "${home.track.title}" (${home.trackId}); upload the file again to add it as a version of another track.`,
        track_id: home.trackId,
        version_id: version.id,
        errors: [{ path: '/asset_id', message: 'already backs a version' }],
      });
    }
    expect(await versionsOf(assetId)).toBe(1);
    // Later, to the same track: still the one version.
    expect((await addVersion(owner, home.trackId, assetId)).statusCode).toBe(409);
    expect(await versionsOf(assetId)).toBe(1);
  });

  it('holds in the database: a second version from the same upload is refused by its unique index', async () => {
    const owner = await signupUser(t.app, 'index');
    const assetId = await uploadViaApi(t.app, owner, flac);
    const trackId = await createTrack(owner, 'Indexed');
    expect((await addVersion(owner, trackId, assetId)).statusCode).toBe(202);
    await expect(
      t.connections.prisma.trackVersion.create({ data: { trackId, assetId, number: 2, fromUpload: true } }),
    ).rejects.toMatchObject({ code: 'P2002' });
  });

  it(`refuses an account's version past ${VERSION_LIMITS.inFlightPerUser} in processing with 429 and Retry-After, until one is done`, async () => {
    const owner = await signupUser(t.app, 'busy');
    const uploads: string[] = [];
    for (let i = 0; i <= VERSION_LIMITS.inFlightPerUser; i++)
      uploads.push(await uploadViaApi(t.app, owner, flac));
    // A library import's versions are its own work (paced by its queue priority): not counted.
    const imported = await createTrack(owner, 'Imported');
    await addReadyVersion(t.connections, imported, owner.id, { artist: 'A', album: 'B' });
    await t.connections.prisma.trackVersion.updateMany({
      where: { trackId: imported },
      data: { status: 'pending' },
    });
    const trackId = await createTrack(owner, 'Busy');
    const added = await Promise.all(uploads.map((assetId) => addVersion(owner, trackId, assetId)));
    const statuses = added.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(VERSION_LIMITS.inFlightPerUser).fill(202), 429]);
    const refused = added.find((r) => r.statusCode === 429)!;
    expect(refused.headers['retry-after']).toBe(String(VERSION_LIMITS.retryAfterSeconds));
    expect(refused.json().detail).toBe(
      `You have ${VERSION_LIMITS.inFlightPerUser} versions waiting for or in processing, the most one account may have at once; add this one when one of them is ready (retry in ${VERSION_LIMITS.retryAfterSeconds} s).`,
    );
    // The refused upload is still the owner's to add later.
    const unused = await t.connections.prisma.asset.findFirstOrThrow({
      where: { id: { in: uploads }, versions: { none: {} } },
    });
    // Another account is not held back by this one.
    const other = await signupUser(t.app, 'free');
    expect(
      (await addVersion(other, await createTrack(other, 'Free'), await uploadViaApi(t.app, other, flac)))
        .statusCode,
    ).toBe(202);
    // One of them done (ready or failed): the next add is taken.
    const first = added.find((r) => r.statusCode === 202)!.json<{ id: string }>().id;
    await t.connections.prisma.trackVersion.update({ where: { id: first }, data: { status: 'failed' } });
    expect((await addVersion(owner, trackId, unused.id)).statusCode).toBe(202);
  }, 120_000);
});
