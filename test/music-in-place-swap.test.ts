/**
 * A library file swapped for a symlink after it was checked (the folder's owner can do that at any
 * time) is never read through: not by the originals store reading it in place (the file opened is
 * the one checked, same device and inode), nor by the import reading a file its walk listed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { link, mkdir, mkdtemp, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemObjectStore } from '../src/music/repositories/object-store/fs-store.js';
import { InPlaceOriginals, inPlaceKey } from '../src/music/repositories/object-store/in-place-store.js';
import {
  inspectFile,
  openFile,
  sha256OfFile,
  walkLibrary,
  type LibraryCandidate,
} from '../src/music/repositories/library-files.js';
import { generateAudio } from './helpers/music-worker.js';

const SHA = 'b'.repeat(64);
const OWNER = '00000000-0000-4000-8000-000000000002';
// Renames a symlink to the secret, then the real file, over the imported path, again and again.
const FLIPPER = `
const fs = require('node:fs');
const [track, spare, secret] = process.argv.slice(1);
const tmp = track + '.next';
process.stdout.write('ready\\n');
for (;;) {
  fs.symlinkSync(secret, tmp); fs.renameSync(tmp, track);
  fs.linkSync(spare, tmp); fs.renameSync(tmp, track);
}
`;

let dir: string;
let flipper: ChildProcess | undefined;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'in-place-swap-')));
});

afterAll(async () => {
  flipper?.kill();
  if (flipper && flipper.exitCode === null) await once(flipper, 'exit');
  await rm(dir, { recursive: true, force: true });
});

/**
 * A folder of one song as the walk listed it; then `put` (a symlink or a hard link) to another
 * audio file outside it is renamed over the song's path.
 */
async function listedThenReplaced(
  name: string,
  put: (target: string, path: string) => Promise<void>,
): Promise<{ entry: LibraryCandidate; elsewhere: string }> {
  const folder = join(dir, name);
  await mkdir(folder);
  const elsewhere = join(dir, `elsewhere-${name}.flac`);
  await generateAudio(join(folder, 'song.flac'), { seconds: 1 });
  await generateAudio(elsewhere, { seconds: 2 });
  const listed: LibraryCandidate[] = [];
  for await (const entry of walkLibrary(folder)) if (entry.kind === 'file') listed.push(entry);
  expect(listed.map((e) => e.path)).toEqual(['song.flac']);
  const entry = listed[0]!;
  await put(elsewhere, `${entry.abs}.next`);
  await rename(`${entry.abs}.next`, entry.abs);
  return { entry, elsewhere };
}

describe('an in-place file swapped for a symlink while it is read', () => {
  it('is served as the file it was, or not at all; never the target of the link', async () => {
    const roots = join(dir, 'roots');
    await mkdir(roots);
    const track = join(roots, 'song.flac');
    const spare = join(roots, '.spare');
    const secret = join(dir, 'secret.txt');
    await writeFile(track, 'AUDIO');
    await writeFile(spare, 'AUDIO');
    await writeFile(secret, 'SECRET');
    const store = new InPlaceOriginals(new FilesystemObjectStore(join(dir, 'store'), 'originals'), [roots]);

    flipper = spawn(process.execPath, ['-e', FLIPPER, track, spare, secret], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(flipper.stdout!, 'data');
    const key = inPlaceKey(OWNER, SHA, (await stat(spare)).ino, track);
    const seen = new Set<string>();
    for (let i = 0; i < 3000 && !seen.has('SECRET'); i++) {
      const found = await store.get(key).catch(() => undefined);
      if (found) seen.add(await text(found.body).catch(() => 'error'));
    }
    expect([...seen]).toContain('AUDIO');
    expect([...seen]).not.toContain('SECRET');
  }, 60_000);

  it('is not read by an import: the walk listed the file, the read finds a link and refuses it', async () => {
    const { entry, elsewhere } = await listedThenReplaced('folder', symlink);
    const found = await inspectFile({ ...entry, size: (await stat(elsewhere)).size }, (f) =>
      Promise.resolve(f),
    );
    expect(found).toMatchObject({ ok: false, kind: 'unreadable' });
    expect(found.ok ? '' : found.reason).toMatch(/replaced by a symlink/);
    await expect(sha256OfFile(entry.abs)).rejects.toThrow(/replaced by a symlink/);
    await expect(buffer(openFile(entry.abs))).rejects.toThrow(/replaced by a symlink/);
  }, 60_000);

  it('is not read by an import when a hard link to another file was put at its path since the walk', async () => {
    const { entry } = await listedThenReplaced('linked', link);
    const found = await inspectFile(entry, (f) => Promise.resolve(f));
    expect(found.ok ? '' : found.reason).toMatch(/replaced by a symlink or another file/);
    await expect(sha256OfFile(entry.abs, entry.ino)).rejects.toThrow(/another file/);
  }, 60_000);
});
