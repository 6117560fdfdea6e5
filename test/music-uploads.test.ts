/** Multipart uploads over HTTP: API part route (filesystem store) and presigned URLs (s3rver). */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaAssetRepository } from '../src/music/repositories/asset-repository.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  MiB,
  TEST_TAGS,
  initUpload,
  makeTestFlac,
  putPartViaApi,
  sha256,
  signupUser,
  slice,
  type TestUser,
} from './helpers/music-domain.js';
import { s3Settings, uniqueSuffix } from './helpers/music-env.js';

let work: string;
let flac: Buffer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'uploads-'));
  flac = await makeTestFlac(work);
});
afterAll(async () => rm(work, { recursive: true, force: true }));

const EXPECTED_TAGS = {
  title: TEST_TAGS.TITLE,
  artist: TEST_TAGS.ARTIST,
  album_artist: TEST_TAGS.ALBUMARTIST,
  album: TEST_TAGS.ALBUM,
  genre: TEST_TAGS.GENRE,
  track_number: 3,
  disc_number: 2,
  year: 2021,
  date: '2021-05-04',
  musicbrainz_recording_id: TEST_TAGS.MUSICBRAINZ_TRACKID,
  musicbrainz_album_id: TEST_TAGS.MUSICBRAINZ_ALBUMID,
  musicbrainz_artist_id: TEST_TAGS.MUSICBRAINZ_ARTISTID,
};

describe('uploads through the API part route (filesystem store)', () => {
  let t: MusicTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    user = await signupUser(t.app);
  });
  afterAll(async () => t.close());

  const complete = (who: TestUser, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/upload/multipart/complete',
      headers: who.headers,
      payload: payload as object,
    });
  const multipartDirs = async () => readdir(join(t.dataDir, 'objects', 'originals', '.multipart'));
  const originals = async (who: TestUser) => t.connections.stores.originals.list(`${who.id}/`);

  it('uploads a 30 s FLAC in 3 parts of at least 5 MB, resumes after listing, and reads its tags', async () => {
    expect(flac.length).toBeGreaterThan(10 * MiB);
    const init = await initUpload(t.app, user, flac, { sha256: sha256(flac), part_size: 6 * MiB });
    expect(init).toMatchObject({ part_size: 6 * MiB, part_count: 3, transport: 'api' });
    expect(init.parts.map((p) => p.url)).toEqual(
      [1, 2, 3].map((n) => `/api/v1/upload/multipart/${init.upload_id}/parts/${n}`),
    );
    const etags: Record<number, string> = {};
    etags[1] = await putPartViaApi(t.app, user, init, flac, 1);
    etags[2] = await putPartViaApi(t.app, user, init, flac, 2);

    // The connection dropped: list what arrived, re-send part 2, send the rest.
    const listed = await t.app.inject({
      url: `/api/v1/upload/multipart/${init.upload_id}`,
      headers: user.headers,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().received).toEqual([
      { part_number: 1, etag: etags[1], size: 6 * MiB },
      { part_number: 2, etag: etags[2], size: 6 * MiB },
    ]);
    expect(listed.json().parts.map((p: { part_number: number }) => p.part_number)).toEqual([3]);
    expect(await putPartViaApi(t.app, user, init, flac, 2)).toBe(etags[2]);
    etags[3] = await putPartViaApi(t.app, user, init, flac, 3);

    const res = await complete(user, {
      upload_id: init.upload_id,
      asset_id: init.asset_id,
      parts: [1, 2, 3].map((n) => ({ part_number: n, etag: etags[n] })),
    });
    expect(res.statusCode, res.body).toBe(200);
    const asset = res.json();
    expect(asset).toMatchObject({
      asset_id: init.asset_id,
      status: 'uploaded',
      size: flac.length,
      sha256: sha256(flac),
    });
    expect(asset.probe).toMatchObject({
      format: 'flac',
      codec: 'flac',
      duration_ms: 30_000,
      channels: 2,
      sample_rate: 192000,
    });
    expect(asset.probe.tags).toMatchObject(EXPECTED_TAGS);
    const stored = await t.connections.stores.originals.get(`${user.id}/${init.asset_id}`);
    expect(sha256(Buffer.concat(await stored!.body.toArray()))).toBe(sha256(flac));
    expect(await multipartDirs()).not.toContain(expect.stringContaining('-'));
    // Completed: the upload id names nothing any more.
    expect(
      (
        await complete(user, {
          upload_id: init.upload_id,
          asset_id: init.asset_id,
          parts: [{ part_number: 1, etag: etags[1] }],
        })
      ).statusCode,
    ).toBe(404);
  });

  it("reads an unfinished upload by its id with one raw statement, equal to Prisma's model read", async () => {
    const small = await makeTestFlac(work, 5, 48000);
    const init = await initUpload(t.app, user, small, { sha256: sha256(small) });
    const raw = await new PrismaAssetRepository(t.connections.prisma).findByUploadId(init.upload_id);
    const model = await t.connections.prisma.asset.findUnique({ where: { uploadId: init.upload_id } });
    expect(model).not.toBeNull();
    const { updatedAt: _updatedAt, ...fields } = model!;
    expect(raw).toEqual(fields);
    expect(
      await new PrismaAssetRepository(t.connections.prisma).findByUploadId(init.asset_id),
    ).toBeUndefined();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/upload/multipart/${init.upload_id}`,
      headers: user.headers,
    });
  });

  it('a wrong sha256 is a 422 and the bytes are gone', async () => {
    const small = await makeTestFlac(work, 5, 48000);
    const init = await initUpload(t.app, user, small, { sha256: 'ab'.repeat(32) });
    const etag = await putPartViaApi(t.app, user, init, small, 1);
    const res = await complete(user, {
      upload_id: init.upload_id,
      asset_id: init.asset_id,
      parts: [{ part_number: 1, etag }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain(sha256(small));
    expect(res.json().errors[0].path).toBe('/sha256');
    expect(await originals(user)).not.toContain(`${user.id}/${init.asset_id}`);
    expect(await multipartDirs()).toEqual([]);
  });

  it('a text file named .mp3 is a 422 naming what it is, and its bytes are gone', async () => {
    const text = Buffer.from('This is not music.\n'.repeat(2000));
    const init = await initUpload(t.app, user, text);
    const etag = await putPartViaApi(t.app, user, init, text, 1);
    const res = await complete(user, {
      upload_id: init.upload_id,
      asset_id: init.asset_id,
      parts: [{ part_number: 1, etag }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json().detail).toMatch(/accepted: MP3, FLAC/);
    expect(await originals(user)).not.toContain(`${user.id}/${init.asset_id}`);
    expect(await multipartDirs()).toEqual([]);
    const row = await t.connections.prisma.asset.findUnique({ where: { id: init.asset_id } });
    expect(row?.status).toBe('aborted');
  });

  it('501 MB declared is refused before any byte is stored', async () => {
    const before = await multipartDirs();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/upload/multipart/init',
      headers: user.headers,
      payload: { filename: 'big.wav', content_type: 'audio/wav', size: 501 * MiB },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors).toEqual([{ path: '/size', message: expect.stringMatching(/at most/) }]);
    expect(await multipartDirs()).toEqual(before);
    expect(
      await t.connections.prisma.asset.count({ where: { ownerUserId: user.id, status: 'uploading' } }),
    ).toBe(0);
  });

  it("bad input is a 400 naming the field; someone else's or a non-UUID upload id is a 404", async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/upload/multipart/init',
      headers: user.headers,
      payload: { filename: 'a\u0000b', content_type: 'audio', size: 0, extra: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['/content_type', '/extra', '/filename', '/size']);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/upload/multipart/init', payload: {} })).statusCode,
    ).toBe(401);

    const small = Buffer.alloc(1000, 1);
    const init = await initUpload(t.app, user, small);
    const other = await signupUser(t.app);
    const theirs = await t.app.inject({
      url: `/api/v1/upload/multipart/${init.upload_id}`,
      headers: other.headers,
    });
    expect(theirs.statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/upload/multipart/${init.upload_id}/parts/1`,
      headers: { ...other.headers, 'content-type': 'application/octet-stream' },
      payload: small,
    });
    expect(put.statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/v1/upload/multipart/not-a-uuid', headers: user.headers })).statusCode,
    ).toBe(404);
    // A part of the wrong size or number is refused before it is stored.
    const wrongSize = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/upload/multipart/${init.upload_id}/parts/1`,
      headers: { ...user.headers, 'content-type': 'application/octet-stream' },
      payload: small.subarray(0, 10),
    });
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json().errors[0].path).toBe('headers:/content-length');
    const wrongNumber = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/upload/multipart/${init.upload_id}/parts/2`,
      headers: { ...user.headers, 'content-type': 'application/octet-stream' },
      payload: small,
    });
    expect(wrongNumber.statusCode).toBe(400);
    // Abort: the parts are deleted and the id names nothing.
    await putPartViaApi(t.app, user, init, small, 1);
    const abort = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/upload/multipart/${init.upload_id}`,
      headers: user.headers,
    });
    expect(abort.statusCode).toBe(204);
    expect(await multipartDirs()).toEqual([]);
    expect(
      (await t.app.inject({ url: `/api/v1/upload/multipart/${init.upload_id}`, headers: user.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('holds the bound of 5 unfinished uploads when 20 inits of one user arrive at once; the refused leave nothing stored', async () => {
    const who = await signupUser(t.app);
    const before = (await multipartDirs()).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/upload/multipart/init',
          headers: who.headers,
          payload: { filename: 'x.flac', content_type: 'audio/flac', size: 1000 + i },
        }),
      ),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array<number>(5).fill(201), ...Array<number>(15).fill(409)]);
    expect(
      await t.connections.prisma.asset.count({ where: { ownerUserId: who.id, status: 'uploading' } }),
    ).toBe(5);
    expect((await multipartDirs()).length - before).toBe(5);
  });

  it('allows at most 5 unfinished uploads per user; upload cleanup aborts those older than 24 h', async () => {
    const who = await signupUser(t.app);
    const small = Buffer.alloc(1000, 2);
    const inits = [];
    for (let i = 0; i < 5; i++) inits.push(await initUpload(t.app, who, small));
    await putPartViaApi(t.app, who, inits[0]!, small, 1);
    const sixth = await t.app.inject({
      method: 'POST',
      url: '/api/v1/upload/multipart/init',
      headers: who.headers,
      payload: { filename: 'x.flac', content_type: 'audio/flac', size: 1000 },
    });
    expect(sixth.statusCode).toBe(409);

    const { uploadService } = await import('./helpers/music-services.js');
    const cleanup = uploadService(t);
    expect(await cleanup.cleanup(Date.now())).toEqual({ aborted: 0, failed: 0 });
    const result = await cleanup.cleanup(Date.now() + 24 * 3600_000 + 60_000);
    expect(result.aborted).toBeGreaterThanOrEqual(5);
    expect(result.failed).toBe(0);
    expect(await multipartDirs()).toEqual([]);
    expect(
      await t.connections.prisma.asset.count({ where: { ownerUserId: who.id, status: 'uploading' } }),
    ).toBe(0);
    expect((await initUpload(t.app, who, small)).upload_id).toEqual(expect.any(String));
  });
});

describe('uploads through presigned URLs (s3rver)', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    const s3 = s3Settings(`u${uniqueSuffix()}-`);
    t = await createMusicTestApp({
      RATE_LIMITS: 'off',
      OBJECT_STORE_ENDPOINT: s3.endpoint,
      OBJECT_STORE_ROOT_USER: s3.accessKeyId,
      OBJECT_STORE_ROOT_PASSWORD: s3.secretAccessKey,
      OBJECT_STORE_BUCKET_PREFIX: s3.bucketPrefix,
    });
  });
  afterAll(async () => t.close());

  it('parts go straight to the store; complete checks them and probes the file', async () => {
    const user = await signupUser(t.app);
    const init = await initUpload(t.app, user, flac, { sha256: sha256(flac), part_size: 6 * MiB });
    expect(init).toMatchObject({ transport: 'direct', part_count: 3 });
    const parts = [];
    for (const p of init.parts) {
      expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*X-Amz-Signature=/);
      const res = await fetch(p.url, { method: 'PUT', body: slice(flac, init.part_size, p.part_number) });
      expect(res.status).toBe(200);
      parts.push({ part_number: p.part_number, etag: res.headers.get('etag') ?? '' });
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/upload/multipart/complete',
      headers: user.headers,
      payload: { upload_id: init.upload_id, asset_id: init.asset_id, parts },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().probe.tags).toMatchObject(EXPECTED_TAGS);
    const head = await t.connections.stores.originals.head(`${user.id}/${init.asset_id}`);
    expect(head?.size).toBe(flac.length);
  });

  it('a text file is a 422 and its object is deleted from the bucket', async () => {
    const user = await signupUser(t.app);
    const text = Buffer.from('plain text, not audio\n'.repeat(100));
    await writeFile(join(work, 'fake.mp3'), text);
    const init = await initUpload(t.app, user, text);
    const put = await fetch(init.parts[0]!.url, { method: 'PUT', body: text });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/upload/multipart/complete',
      headers: user.headers,
      payload: {
        upload_id: init.upload_id,
        asset_id: init.asset_id,
        parts: [{ part_number: 1, etag: put.headers.get('etag') }],
      },
    });
    expect(res.statusCode).toBe(422);
    expect(await t.connections.stores.originals.head(`${user.id}/${init.asset_id}`)).toBeUndefined();
  });
});
