/**
 * `--in-place` imports: the files are read where they are (nothing copied into the originals
 * store), the real music-worker transcodes them from there, Subsonic downloads serve them, and
 * deleting the track leaves the owner's file. The store reads such keys only inside
 * LIBRARY_IMPORT_ROOTS and never through a symlink; the CLI refuses --in-place outside them.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  copyFile,
  link,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryCommand } from '../src/main/commands/library.js';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import {
  InPlaceOriginals,
  inPlaceFile,
  inPlaceKey,
  inPlacePath,
} from '../src/music/repositories/object-store/in-place-store.js';
import { runCommand } from './helpers/cli-command.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import {
  generateAudio,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

let t: MusicTestApp;
let dir: string;
let roots: string;
let owner: TestUser;
let worker: WorkerProcess | undefined;
const SHA = 'a'.repeat(64);
/** The inode a path names now (0 when it names nothing). */
const inodeOf = (path: string): Promise<number> =>
  stat(path).then(
    (s) => s.ino,
    () => 0,
  );
const OWNER = '00000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'library-in-place-')));
  roots = join(dir, 'roots');
  await mkdir(roots);
  t = await createMusicTestApp({ RATE_LIMITS: 'off', LIBRARY_IMPORT_ROOTS: roots });
  owner = await signupUser(t.app, 'inplace');
}, 120_000);

/** One run of a new in-place import of `root` for `ownerUserId`, as the job runs it. */
async function importInPlace(ownerUserId: string, root: string) {
  const wiring = createLibraryImporter(t.config, t.connections);
  try {
    const record = await wiring.library.createImport({
      ownerUserId,
      requestedBy: null,
      root,
      visibility: 'public',
      prune: false,
      inPlace: true,
    });
    return await wiring.importer.run(record.id, randomUUID());
  } finally {
    await wiring.close();
  }
}

afterAll(async () => {
  if (worker) await stopWorkerProcess(worker);
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the originals store reading library files in place', () => {
  it('reads a key only inside the roots, never through a symlink, and never writes or deletes', async () => {
    const inside = join(roots, 'a.bin');
    const outside = join(dir, 'outside.bin');
    await writeFile(inside, 'inside bytes');
    await writeFile(outside, 'outside bytes');
    await symlink(outside, join(roots, 'link-out.bin'));
    await symlink(inside, join(roots, 'link-in.bin'));
    const store = new InPlaceOriginals(t.connections.stores.originals, [roots]);
    const insideInode = await inodeOf(inside);
    const key = (path: string, ino = insideInode): string => inPlaceKey(OWNER, SHA, ino, path);

    const found = await store.get(key(inside));
    expect(found?.size).toBe(12);
    expect(await text(found!.body)).toBe('inside bytes');
    const part = await store.get(key(inside), { start: 7, end: 100 });
    expect(part?.range).toEqual({ start: 7, end: 11 });
    expect(await text(part!.body)).toBe('bytes');
    const source = await store.readSource(key(inside));
    expect(source && 'body' in source ? await text(source.body) : source).toBe('inside bytes');

    for (const path of [
      outside,
      join(roots, 'link-out.bin'),
      join(roots, 'link-in.bin'),
      roots,
      join(roots, 'gone'),
    ])
      expect(await store.head(key(path, await inodeOf(path))), path).toBeUndefined();
    expect(await store.head(key(`${roots}/../outside.bin`, await inodeOf(outside)))).toBeUndefined();
    expect(inPlacePath(`in-place:${SHA}:relative/path`)).toBeUndefined();
    expect(inPlacePath(`in-place:${SHA}:${inside}`)).toBeUndefined();
    expect(inPlacePath(key(inside))).toBe(inside);
    expect(inPlacePath(`in-place:short:${inside}`)).toBeUndefined();
    expect(await store.head(key(`${inside}\0x`))).toBeUndefined();
    expect(await new InPlaceOriginals(t.connections.stores.originals, []).head(key(inside))).toBeUndefined();

    expect(inPlacePath(`in-place:${OWNER}/${SHA}:${inside}`)).toBeUndefined();

    // A hard link to a file outside the roots put at an imported path is another inode with other
    // bytes than the key names: not served.
    const replaced = join(roots, 'replaced.bin');
    await writeFile(replaced, 'imported bytes');
    const importedSha = createHash('sha256').update('imported bytes').digest('hex');
    const imported = inPlaceKey(OWNER, importedSha, await inodeOf(replaced), replaced);
    // Its inode kept allocated (outside the roots), so no file written below is given its number.
    await link(replaced, join(dir, 'keeps-the-inode.bin'));
    expect(await store.head(imported)).toBeDefined();
    // Saved by rename (a tag editor, rsync, a restore): another inode, the same bytes: served.
    await writeFile(`${replaced}.new`, 'imported bytes');
    await rename(`${replaced}.new`, replaced);
    expect(await text((await store.get(imported))!.body)).toBe('imported bytes');
    await rm(replaced);
    await link(outside, replaced);
    expect(await store.get(imported)).toBeUndefined();
    expect(await store.get(imported)).toBeUndefined();
    // Other bytes refused are not refused for ever: written back, the file is checked again.
    await rm(replaced);
    await writeFile(replaced, 'other bytes!!!');
    expect(await store.head(imported)).toBeUndefined();
    await writeFile(replaced, 'imported bytes');
    expect(await text((await store.get(imported))!.body)).toBe('imported bytes');

    expect(() => store.put(key(inside), 'x')).toThrow(/read only/);
    expect(() => store.move(key(inside), 'a/b')).toThrow(/read only/);
    await store.delete(key(inside));
    expect(await readFile(inside, 'utf8')).toBe('inside bytes');
  });
});

describe('library import --in-place', () => {
  it('copies nothing; the worker transcodes the files where they are; downloads serve them; deleting keeps them', async () => {
    const word = `Numbat${randomUUID().slice(0, 6)}`;
    const album = join(roots, 'music', `${word} Album`);
    await mkdir(album, { recursive: true });
    const files = [join(album, '01.flac'), join(album, '02.mp3')];
    for (const [n, file] of files.entries())
      await generateAudio(file, {
        seconds: 1,
        ...(file.endsWith('.mp3') ? { codec: 'libmp3lame' } : {}),
        tags: { title: `${word} Song ${n + 1}`, artist: `${word} Band` },
      });

    const done = await importInPlace(owner.id, join(roots, 'music'));
    expect(done).toMatchObject({ status: 'done', imported: 2, failed: 0, inPlace: true });

    expect(await t.connections.stores.originals.list(`${owner.id}/`)).toEqual([]);
    const assets = await t.connections.prisma.asset.findMany({
      where: { ownerUserId: owner.id },
      select: { objectKey: true },
    });
    expect(assets.map((a) => inPlacePath(a.objectKey)).sort()).toEqual(files);

    // The same folder in place for a second owner: assets of their own (the key names the owner).
    const other = await signupUser(t.app, 'inplace2');
    expect(await importInPlace(other.id, join(roots, 'music'))).toMatchObject({
      status: 'done',
      imported: 2,
    });
    const versionsOfOther = await t.connections.prisma.trackVersion.findMany({
      where: { track: { ownerUserId: other.id } },
      select: { asset: { select: { ownerUserId: true } } },
    });
    expect(versionsOfOther.map((v) => v.asset.ownerUserId)).toEqual([other.id, other.id]);

    worker = await startWorkerProcess(t.config, { LIBRARY_IMPORT_ROOTS: roots });
    const versions = { track: { ownerUserId: owner.id } };
    while ((await t.connections.prisma.trackVersion.count({ where: { ...versions, status: 'ready' } })) < 2) {
      expect(
        await t.connections.prisma.trackVersion.count({ where: { ...versions, status: 'failed' } }),
      ).toBe(0);
      await sleep(300);
    }

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: owner.headers,
      payload: { name: 'test player' },
    });
    const apiKey = created.json<{ key: string }>().key;
    const rest = (path: string, params: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: `/rest/${path}?${new URLSearchParams({ apiKey, f: 'json', ...params }).toString()}`,
      });
    const songId = async (title: string): Promise<string> => {
      const search = (await rest('search3.view', { query: title })).json<{
        'subsonic-response': { searchResult3: { song?: { id: string; title: string }[] } };
      }>();
      const song = search['subsonic-response'].searchResult3.song?.find((s) => s.title === title);
      expect(song).toBeDefined();
      return song!.id;
    };
    const download = await rest('download.view', { id: await songId(`${word} Song 1`) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(await readFile(files[0]!))).toBe(true);

    // Restored from a backup: the same bytes and time under a new inode. The next run points the
    // asset at the new inode (imports nothing); the file is served again.
    const mp3 = files[1]!;
    const before = await stat(mp3);
    await copyFile(mp3, `${mp3}.restored`);
    await utimes(`${mp3}.restored`, before.atime, before.mtime);
    await rename(`${mp3}.restored`, mp3);
    expect(await importInPlace(owner.id, join(roots, 'music'))).toMatchObject({
      status: 'done',
      imported: 0,
      updated: 0,
      failed: 0,
    });
    const mp3Asset = await t.connections.prisma.asset.findFirstOrThrow({
      where: { ownerUserId: owner.id, objectKey: { endsWith: `:${mp3}` } },
    });
    expect(inPlaceFile(mp3Asset.objectKey)?.ino).toBe((await stat(mp3)).ino);
    const song2 = await songId(`${word} Song 2`);
    const restoredDownload = await rest('download.view', { id: song2 });
    expect(restoredDownload.statusCode).toBe(200);
    expect(restoredDownload.rawPayload.equals(await readFile(mp3))).toBe(true);

    // Replaced by a hard link to a file outside the library: not served.
    const outsideFile = join(dir, 'not-music.txt');
    await writeFile(outsideFile, 'private notes');
    await rm(mp3);
    await link(outsideFile, mp3);
    const linked = await rest('download.view', { id: song2 });
    expect(linked.rawPayload.toString()).not.toContain('private notes');
    expect(linked.json()).toMatchObject({ 'subsonic-response': { status: 'failed', error: { code: 70 } } });

    const track = await t.connections.prisma.track.findFirst({
      where: { ownerUserId: owner.id, title: `${word} Song 1` },
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/tracks/${track!.id}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await stat(files[0]!)).isFile()).toBe(true);
  }, 300_000);

  it('the CLI refuses --in-place for a folder outside LIBRARY_IMPORT_ROOTS, naming the setting', async () => {
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    const env = {
      DATABASE_URL: testDatabaseUrl(),
      CACHE_URL: t.config.cacheUrl,
      MUSIC_CACHE_KEY_PREFIX: t.config.cacheKeyPrefix,
      QUEUE_PREFIX: t.config.queuePrefix,
      DATA_DIR: t.config.dataDir,
    };
    const run = (extra: Record<string, string>) =>
      runCommand(libraryCommand, ['import', elsewhere, '--owner', owner.handle, '--in-place'], {
        ...env,
        ...extra,
      });
    // The same command on an (empty) folder inside the roots runs: the refusal is the roots'.
    const inside = join(roots, 'empty');
    await mkdir(inside);
    const ran = await runCommand(libraryCommand, ['import', inside, '--owner', owner.handle, '--in-place'], {
      ...env,
      LIBRARY_IMPORT_ROOTS: roots,
    });
    expect(ran.code).toBe(0);
    expect(ran.printed).toContain('done');
    expect((await run({ LIBRARY_IMPORT_ROOTS: roots })).code).toBe(2);
    expect((await run({ LIBRARY_IMPORT_ROOTS: '' })).code).toBe(2);
    expect(await t.connections.prisma.libraryImport.count({ where: { root: elsewhere } })).toBe(0);
  });
});
