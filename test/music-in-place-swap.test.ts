/**
 * A library file read in place that is swapped for a symlink while it is read (the folder's owner
 * can do that at any time) never makes the originals store serve the link's target: the file
 * opened is the one checked (same device and inode), not whatever the path names a moment later.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemObjectStore } from '../src/music/repositories/object-store/fs-store.js';
import { InPlaceOriginals, inPlaceKey } from '../src/music/repositories/object-store/in-place-store.js';

const SHA = 'b'.repeat(64);
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
    const seen = new Set<string>();
    for (let i = 0; i < 3000 && !seen.has('SECRET'); i++) {
      const found = await store.get(inPlaceKey(SHA, track)).catch(() => undefined);
      if (found) seen.add(await text(found.body).catch(() => 'error'));
    }
    expect([...seen]).toContain('AUDIO');
    expect([...seen]).not.toContain('SECRET');
  }, 60_000);
});
