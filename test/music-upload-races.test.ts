/**
 * An abort racing a complete (issue 30, item 4): every status change of an upload is a guarded
 * transition, so exactly one of them wins, the other answers 409, and nothing the loser wrote
 * stays stored. Cleanup also finishes aborted uploads whose bytes were left behind.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { initUpload, makeTestFlac, putPartViaApi, sha256, signupUser } from './helpers/music-domain.js';
import { uploadService } from './helpers/music-services.js';

describe('upload status transitions', () => {
  let t: MusicTestApp;
  let dir: string;
  let flac: Buffer;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    dir = await mkdtemp(join(tmpdir(), 'races-'));
    flac = await makeTestFlac(dir, 2, 8000);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Files the upload has in the originals store: its object and its parts folder. */
  async function storedFiles(assetId: string): Promise<string[]> {
    const { multipartUploadId } = await t.connections.prisma.asset.findUniqueOrThrow({
      where: { id: assetId },
    });
    return filesOf(assetId, multipartUploadId);
  }

  async function filesOf(assetId: string, multipartUploadId: string | null): Promise<string[]> {
    const root = join(t.dataDir, 'objects', 'originals');
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .filter((f) => f.includes(assetId) || (multipartUploadId !== null && f.includes(multipartUploadId)));
  }

  it('abort and complete at once: one wins, the other is a 409, the loser leaves nothing', async () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const who = await signupUser(t.app, 'race');
      const init = await initUpload(t.app, who, flac, { sha256: sha256(flac) });
      const etag = await putPartViaApi(t.app, who, init, flac, 1);
      const { multipartUploadId } = await t.connections.prisma.asset.findUniqueOrThrow({
        where: { id: init.asset_id },
      });
      const [complete, abort] = await Promise.all([
        t.app.inject({
          method: 'POST',
          url: '/api/v1/upload/multipart/complete',
          headers: who.headers,
          payload: { upload_id: init.upload_id, asset_id: init.asset_id, parts: [{ part_number: 1, etag }] },
        }),
        t.app.inject({
          method: 'DELETE',
          url: `/api/v1/upload/multipart/${init.upload_id}`,
          headers: who.headers,
        }),
      ]);
      const asset = await t.connections.prisma.asset.findUniqueOrThrow({ where: { id: init.asset_id } });
      const files = await filesOf(init.asset_id, multipartUploadId);
      const pair = `${complete.statusCode}/${abort.statusCode}`;
      if (asset.status === 'uploaded') {
        expect(complete.statusCode, pair).toBe(200);
        expect([404, 409], pair).toContain(abort.statusCode);
        expect(files).toHaveLength(1);
      } else {
        expect(asset.status).toBe('aborted');
        expect(abort.statusCode, pair).toBe(204);
        expect([404, 409], pair).toContain(complete.statusCode);
        expect(files, pair).toEqual([]);
        expect(asset.multipartUploadId).toBeNull();
      }
      outcomes.add(pair);
    }
    // Never both.
    expect([...outcomes].filter((p) => p === '200/204')).toEqual([]);
  }, 120_000);

  it('cleanup deletes what an aborted upload left stored', async () => {
    const who = await signupUser(t.app, 'left');
    const init = await initUpload(t.app, who, flac);
    await putPartViaApi(t.app, who, init, flac, 1);
    // An abort whose deletion failed half-way: marked aborted, the parts still there.
    await t.connections.prisma.asset.update({
      where: { id: init.asset_id },
      data: { status: 'aborted', uploadId: null },
    });
    const { multipartUploadId } = await t.connections.prisma.asset.findUniqueOrThrow({
      where: { id: init.asset_id },
    });
    expect(await storedFiles(init.asset_id)).not.toEqual([]);
    expect((await uploadService(t).cleanup()).failed).toBe(0);
    expect(await filesOf(init.asset_id, multipartUploadId)).toEqual([]);
    const asset = await t.connections.prisma.asset.findUniqueOrThrow({ where: { id: init.asset_id } });
    expect(asset.multipartUploadId).toBeNull();
  });
});
