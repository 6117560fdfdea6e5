/**
 * F19: a symlink inside an imported folder (under LIBRARY_IMPORT_ROOTS) never leads the walk out
 * of it: a file or folder link whose real path lies outside is reported, not read, however it is
 * spelled (absolute, relative, through another link, broken); links that stay inside are
 * followed, and loops are still reported as loops.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import { LINK_OUTSIDE } from '../src/music/repositories/library-files.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { generateAudio, tokenWithRole } from './helpers/music-worker.js';

let t: MusicTestApp;
let dir: string;
let folder: string;
let owner: TestUser;
let admin: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'library-links-')));
  const roots = join(dir, 'roots');
  folder = join(roots, 'music');
  const outside = join(dir, 'outside');
  await mkdir(join(folder, 'album'), { recursive: true });
  await mkdir(join(roots, 'other'), { recursive: true });
  await mkdir(join(outside, 'private'), { recursive: true });
  const audio = (path: string, title: string) => generateAudio(path, { seconds: 0.5, tags: { title } });
  await Promise.all([
    audio(join(folder, 'album', 'kept.flac'), 'Kept'),
    audio(join(folder, 'album', 'second.flac'), 'Second'),
    audio(join(outside, 'secret.flac'), 'Secret'),
    audio(join(outside, 'private', 'diary.flac'), 'Diary'),
    // Inside the roots, outside the imported folder: import that folder itself.
    audio(join(roots, 'other', 'neighbour.flac'), 'Neighbour'),
  ]);
  await symlink(join(outside, 'secret.flac'), join(folder, 'absolute.flac'));
  await symlink('../../outside/secret.flac', join(folder, 'relative.flac'));
  await symlink(join(outside, 'private'), join(folder, 'folder-link'));
  await symlink('/nonexistent/gone.flac', join(folder, 'broken-outside.flac'));
  await symlink('../other/neighbour.flac', join(folder, 'neighbour.flac'));
  // A link inside that leads to another link that leads out.
  await symlink('../absolute.flac', join(folder, 'album', 'hop.flac'));
  await symlink('../relative.flac', join(folder, 'album', 'hop-relative.flac'));
  // Links that stay inside are followed; a folder reached again or a parent is a loop, as before.
  await symlink('kept.flac', join(folder, 'album', 'zz-copy.flac'));
  await symlink('nothing.flac', join(folder, 'album', 'dangling.flac'));
  await symlink('album', join(folder, 'album-link'));
  await symlink('..', join(folder, 'album', 'up'));
  await symlink('../..', join(folder, 'album', 'above'));
  t = await createMusicTestApp({ RATE_LIMITS: 'off', LIBRARY_IMPORT_ROOTS: roots });
  owner = await signupUser(t.app, 'lnk');
  admin = await tokenWithRole(t, 'admin');
}, 120_000);

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('symlinks in an imported folder', () => {
  it('are followed only while their real path stays inside the folder; the rest are reported', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/library/imports',
      headers: { authorization: `Bearer ${admin}` },
      payload: { directory: folder, owner: owner.handle },
    });
    expect(started.statusCode, started.body).toBe(202);
    const importId = started.json<{ import_id: string }>().import_id;
    const wiring = createLibraryImporter(t.config, t.connections);
    try {
      const done = await wiring.importer.run(importId, randomUUID(), { from: ['queued', 'running'] });
      expect(done).toMatchObject({ status: 'done', imported: 2 });
    } finally {
      await wiring.close();
    }
    const tracks = await t.connections.prisma.track.findMany({ where: { ownerUserId: owner.id } });
    expect(tracks.map((tr) => tr.title).sort()).toEqual(['Kept', 'Second']);

    const problems = await t.connections.prisma.libraryImportProblem.findMany({ where: { importId } });
    const reasons = Object.fromEntries(problems.map((p) => [p.path, `${p.kind}: ${p.reason}`]));
    const outside = `failed: ${LINK_OUTSIDE}`;
    const expected = {
      'absolute.flac': outside,
      'relative.flac': outside,
      'folder-link': outside,
      // The same answer whether the target outside exists or not.
      'broken-outside.flac': outside,
      'neighbour.flac': outside,
      'album/hop.flac': outside,
      'album/hop-relative.flac': outside,
      'album/dangling.flac': 'failed: broken symlink or removed during the walk',
      'album-link': expect.stringMatching(/^failed: symlink loop/) as string,
      'album/up': expect.stringMatching(/^failed: symlink loop/) as string,
      'album/above': expect.stringMatching(/^failed: symlink loop/) as string,
    };
    expect(reasons).toMatchObject(expected);
    // The link to kept.flac was followed: one of the two is the track, the other the same content.
    const same = problems.filter((p) => p.reason.startsWith('same content as')).map((p) => p.path);
    expect(same).toHaveLength(1);
    expect(['album/kept.flac', 'album/zz-copy.flac']).toContain(same[0]);
    expect(problems).toHaveLength(Object.keys(expected).length + same.length);
    expect(LINK_OUTSIDE).toMatch(/outside the imported folder/);
  }, 120_000);
});
