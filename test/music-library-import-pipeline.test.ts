/**
 * Imported tracks through the real music-worker: an upload made while the import's backlog waits
 * is ready before any imported version (BullMQ priority), and once ready the imported tracks are
 * in Subsonic (getIndexes, getAlbumList2, search3) and the web player's search, artist and album
 * API with no other step.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, uploadViaApi, type TestUser } from './helpers/music-domain.js';
import {
  generateAudio,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

let t: MusicTestApp;
let dir: string;
let owner: TestUser;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  dir = await mkdtemp(join(tmpdir(), 'library-pipeline-'));
  owner = await signupUser(t.app, 'pip');
}, 120_000);

afterAll(async () => {
  if (worker) await stopWorkerProcess(worker);
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function versionStatus(id: string): Promise<string | undefined> {
  return (await t.connections.prisma.trackVersion.findUnique({ where: { id } }))?.status;
}

describe('imported tracks in the pipeline', () => {
  it('an upload during an import is ready first; imported tracks then show in Subsonic and the player', async () => {
    const word = `Quokka${randomUUID().slice(0, 6)}`;
    const album = join(dir, 'music', `${word} Band`, `${word} Album`);
    await mkdir(album, { recursive: true });
    for (const n of [1, 2, 3, 4])
      await generateAudio(join(album, `0${n}.flac`), {
        seconds: 1,
        tags: {
          title: `${word} Song ${n}`,
          artist: `${word} Band`,
          album_artist: `${word} Band`,
          album: `${word} Album`,
          track: String(n),
        },
      });
    const wiring = createLibraryImporter(t.config, t.connections);
    const record = await wiring.library.createImport({
      ownerUserId: owner.id,
      requestedBy: null,
      root: await realpath(join(dir, 'music')),
      visibility: 'public',
      prune: false,
    });
    const done = await wiring.importer.run(record.id, randomUUID());
    await wiring.close();
    expect(done).toMatchObject({ status: 'done', imported: 4 });

    // The upload comes after the whole backlog was queued.
    const upload = join(dir, 'upload.flac');
    await generateAudio(upload, { seconds: 1, tags: { title: 'Fresh upload' } });
    const assetId = await uploadViaApi(t.app, owner, await readFile(upload));
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title: 'Fresh upload' },
    });
    const trackId = track.json<{ id: string }>().id;
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/v1/tracks/${trackId}/versions`,
      headers: owner.headers,
      payload: { asset_id: assetId },
    });
    expect(added.statusCode, added.body).toBe(202);
    const uploadVersion = added.json<{ id: string }>().id;

    worker = await startWorkerProcess(t.config);
    const imported = { track: { ownerUserId: owner.id }, NOT: { trackId } };
    while ((await versionStatus(uploadVersion)) !== 'ready') {
      expect(await versionStatus(uploadVersion)).not.toBe('failed');
      await sleep(200);
    }
    expect(await t.connections.prisma.trackVersion.count({ where: { ...imported, status: 'ready' } })).toBe(
      0,
    );
    while ((await t.connections.prisma.trackVersion.count({ where: { ...imported, status: 'ready' } })) < 4) {
      expect(
        await t.connections.prisma.trackVersion.count({ where: { ...imported, status: 'failed' } }),
      ).toBe(0);
      await sleep(300);
    }

    // The web player's search, artist and album pages.
    const search = await t.app.inject({ method: 'GET', url: `/api/v1/search?q=${word}` });
    expect(search.statusCode, search.body).toBe(200);
    const found = search.json<{
      songs?: { title: string }[];
      artists?: { id: string; name: string }[];
      albums?: { id: string; name: string }[];
    }>();
    expect(JSON.stringify(found)).toContain(`${word} Song 3`);
    const artist = found.artists?.find((a) => a.name === `${word} Band`);
    const albumHit = found.albums?.find((a) => a.name === `${word} Album`);
    expect(artist, search.body).toBeDefined();
    expect(albumHit, search.body).toBeDefined();
    const artistPage = await t.app.inject({ method: 'GET', url: `/api/v1/artists/${artist?.id ?? ''}` });
    expect(artistPage.statusCode, artistPage.body).toBe(200);
    expect(artistPage.body).toContain(`${word} Album`);
    const albumPage = await t.app.inject({ method: 'GET', url: `/api/v1/albums/${albumHit?.id ?? ''}` });
    expect(albumPage.statusCode, albumPage.body).toBe(200);
    for (const n of [1, 2, 3, 4]) expect(albumPage.body).toContain(`${word} Song ${n}`);

    // Subsonic.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: owner.headers,
      payload: { name: 'test player' },
    });
    const apiKey = created.json<{ key: string }>().key;
    const rest = async (path: string, params: Record<string, string>) => {
      const q = new URLSearchParams({ apiKey, f: 'json', ...params });
      const res = await t.app.inject({ method: 'GET', url: `/rest/${path}?${q.toString()}` });
      const body = res.json<{ 'subsonic-response': Record<string, unknown> & { status: string } }>()[
        'subsonic-response'
      ];
      expect(body.status, res.body).toBe('ok');
      return JSON.stringify(body);
    };
    expect(await rest('search3.view', { query: word })).toContain(`${word} Song 2`);
    expect(await rest('getAlbumList2.view', { type: 'alphabeticalByName', size: '500' })).toContain(
      `${word} Album`,
    );
    expect(await rest('getIndexes.view', {})).toContain(`${word} Band`);
  }, 300_000);
});
