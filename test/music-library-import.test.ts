/**
 * Library import (docs/library-import.md) on a generated folder of a few hundred files in five
 * formats with each kind of bad file: every good file once with its tags and cover, every bad
 * one reported with its reason and nothing half-made, flows at the import's lower priority, a
 * re-run that imports nothing, changed files updated, a missing one reported then pruned.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_IMPORT_PRIORITY } from '../src/music/jobs/flow.js';
import { versionJobId } from '../src/music/jobs/queues.js';
import { createLibraryImporter, type LibraryWiring } from '../src/music/library-wiring.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { generateLibraryTree, type LibraryTree } from './helpers/library-tree.js';
import { run } from './helpers/generated-audio.js';

const BULK = 220;

let t: MusicTestApp;
let tree: LibraryTree;
let root: string;
let dir: string;
let owner: TestUser;
let wiring: LibraryWiring;

async function importOnce(prune = false) {
  const record = await wiring.library.createImport({
    ownerUserId: owner.id,
    requestedBy: null,
    root,
    visibility: 'public',
    prune,
  });
  return wiring.importer.run(record.id, randomUUID());
}

beforeAll(async () => {
  t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  dir = await mkdtemp(join(tmpdir(), 'library-'));
  tree = await generateLibraryTree(join(dir, 'music'), { bulk: BULK, bad: true });
  root = await realpath(tree.root);
  owner = await signupUser(t.app, 'lib');
  wiring = createLibraryImporter(t.config, t.connections, { beatMs: 200 });
}, 300_000);

afterAll(async () => {
  await wiring.close();
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('library import of a generated folder', () => {
  it('imports each good file once with its tags and covers, and reports every bad one', async () => {
    const done = await importOnce();
    expect(done.status).toBe('done');
    const imported = await t.connections.prisma.libraryFile.findMany({ where: { ownerUserId: owner.id } });
    expect(imported.map((f) => f.path).sort()).toEqual(tree.good.map((g) => g.path).sort());
    expect(done.imported).toBe(tree.good.length);
    const problems = await wiring.library.listProblems(done.id, 10_000);
    for (const [path, words] of Object.entries(tree.bad)) {
      const found = problems.find((p) => p.path === path);
      expect(found, path).toBeDefined();
      expect(found?.kind, path).toBe('failed');
      expect(found?.reason.toLowerCase(), path).toContain(words.toLowerCase());
    }
    expect(problems.find((p) => p.path === 'Bad/duplicate.mp3')).toMatchObject({
      kind: 'skipped',
      reason: expect.stringContaining('same content as') as string,
    });
    for (const path of tree.notAudio)
      expect(problems.find((p) => p.path === path)).toMatchObject({
        kind: 'skipped',
        reason: expect.stringContaining('not audio') as string,
      });
    expect(done.failed).toBe(Object.keys(tree.bad).length);

    const prisma = t.connections.prisma;
    const tracks = await prisma.track.findMany({
      where: { ownerUserId: owner.id },
      include: { versions: true },
    });
    expect(tracks).toHaveLength(tree.good.length);
    // Nothing half-made: every track has one version, every asset is used, every file row points at its track.
    expect(tracks.every((tr) => tr.versions.length === 1 && tr.versions[0]?.status === 'pending')).toBe(true);
    const assets = await prisma.asset.findMany({
      where: { ownerUserId: owner.id },
      include: { versions: true },
    });
    expect(assets).toHaveLength(tree.good.length);
    expect(assets.every((a) => a.versions.length === 1 && a.status === 'uploaded')).toBe(true);
    const files = await prisma.libraryFile.findMany({ where: { ownerUserId: owner.id } });
    expect(files.map((f) => f.path).sort()).toEqual(tree.good.map((g) => g.path).sort());

    const byPath = new Map(files.map((f) => [f.path, f]));
    const versions = new Map(tracks.map((tr) => [tr.id, tr.versions[0]]));
    for (const g of tree.good) {
      const file = byPath.get(g.path);
      const v = versions.get(file?.trackId ?? '');
      expect(v, g.path).toBeDefined();
      expect(v?.tagTitle, g.path).toBe(g.title);
      expect(v?.tagAlbum, g.path).toBe(g.album);
      expect(v?.tagArtist, g.path).toBe(g.artist);
      expect(v?.tagAlbumArtist ?? v?.tagArtist, g.path).toBe(g.albumArtist);
      expect(v?.tagTrackNumber, g.path).toBe(g.track);
      if (g.disc > 0) expect(v?.tagDiscNumber, g.path).toBe(g.disc);
      expect(file?.embeddedCover, g.path).toBe(g.cover === 'embedded');
      expect(file?.coverSha256 !== null, g.path).toBe(g.cover === 'side');
    }
    // Five formats: the stored type comes from the content.
    const types = new Set(assets.map((a) => a.contentType));
    expect([...types].sort()).toEqual(['audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/ogg', 'audio/wav']);

    // The flows wait at the import's priority, the side cover travels with the job.
    const redis = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    const transcode = new Queue('transcode', { connection: redis, prefix: t.config.queuePrefix });
    try {
      const ogg = tracks.find((tr) => tr.versions[0]?.tagTitle === 'Song ogg 11')?.versions[0];
      const job = await transcode.getJob(versionJobId('transcode', ogg?.id ?? ''));
      expect(job?.opts.priority).toBe(LIBRARY_IMPORT_PRIORITY);
      expect(job?.data.coverKey).toMatch(new RegExp(`^${owner.id}/library/cover-[0-9a-f]{64}$`));
      expect(await transcode.getPrioritizedCount()).toBe(tree.good.length);
    } finally {
      await transcode.close();
      redis.disconnect();
    }
  }, 240_000);

  it('a second run imports nothing', async () => {
    const before = await t.connections.prisma.trackVersion.count({
      where: { track: { ownerUserId: owner.id } },
    });
    const done = await importOnce();
    expect(done).toMatchObject({ status: 'done', imported: 0, updated: 0, missing: 0, removed: 0 });
    expect(done.skipped).toBeGreaterThanOrEqual(tree.good.length);
    const after = await t.connections.prisma.trackVersion.count({
      where: { track: { ownerUserId: owner.id } },
    });
    expect(after).toBe(before);
  }, 120_000);

  it('updates a retagged file and a changed cover, reports a removed file, and prunes it only when asked', async () => {
    const prisma = t.connections.prisma;
    const retagged = tree.good.find((g) => g.path.endsWith('.flac') && g.cover === 'embedded');
    const sideCovered = tree.good.find((g) => g.path.endsWith('.ogg'));
    const removed = tree.good.find((g) => g.path.startsWith('Bulk/'));
    if (!retagged || !sideCovered || !removed) throw new Error('tree lacks a file kind');
    const src = join(root, retagged.path);
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      src,
      '-map',
      '0',
      '-c',
      'copy',
      '-metadata',
      'title=Retitled',
      `${src}.tmp.flac`,
    ]);
    await run('mv', [`${src}.tmp.flac`, src]);
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=yellow:s=64x64:d=1',
      '-frames:v',
      '1',
      join(root, sideCovered.path, '..', 'cover.jpg'),
    ]);
    await unlink(join(root, removed.path));
    // The track as its owner made it: its shown version's title edited, its year cleared.
    const before = await prisma.libraryFile.findFirstOrThrow({
      where: { ownerUserId: owner.id, path: retagged.path },
    });
    await prisma.trackVersion.update({
      where: { id: before.versionId ?? '' },
      data: { status: 'ready', tagTitle: 'Owner Title', tagYear: null },
    });
    const removedFile = await prisma.libraryFile.findFirstOrThrow({
      where: { ownerUserId: owner.id, path: removed.path },
    });

    const done = await importOnce();
    // Every ogg of the album shares the new cover: four new versions, plus the retagged flac.
    expect(done).toMatchObject({ status: 'done', imported: 0, updated: 5, missing: 1, removed: 0 });
    const file = await prisma.libraryFile.findFirstOrThrow({
      where: { ownerUserId: owner.id, path: retagged.path },
    });
    const newest = await prisma.trackVersion.findFirstOrThrow({
      where: { trackId: file.trackId ?? '' },
      orderBy: { number: 'desc' },
    });
    // One title everywhere: the track's own tags win over the file's; the file fills what it lacks.
    expect(newest).toMatchObject({
      number: 2,
      tagTitle: 'Owner Title',
      tagYear: 2019,
      tagAlbum: retagged.album,
    });
    expect(await prisma.track.count({ where: { id: removedFile.trackId ?? '' } })).toBe(1);
    const problems = await wiring.library.listProblems(done.id, 10_000);
    expect(problems.find((p) => p.path === removed.path)?.kind).toBe('missing');

    const pruned = await importOnce(true);
    expect(pruned).toMatchObject({ status: 'done', imported: 0, updated: 0, missing: 0, removed: 1 });
    expect(await prisma.track.count({ where: { id: removedFile.trackId ?? '' } })).toBe(0);
    expect(await prisma.libraryFile.count({ where: { ownerUserId: owner.id, path: removed.path } })).toBe(0);
  }, 180_000);
});
