/**
 * The library walk and reader as an unprivileged user (the tests run as root, whom permissions
 * do not stop): a folder and a file it may not read are reported as "permission denied".
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'library-perm-'));
  await chmod(dir, 0o755);
  await mkdir(join(dir, 'locked-folder'));
  await writeFile(join(dir, 'locked-folder', 'a.mp3'), 'x');
  await chmod(join(dir, 'locked-folder'), 0o000);
  await writeFile(join(dir, 'locked.flac'), 'fLaC');
  await chmod(join(dir, 'locked.flac'), 0o000);
});

afterAll(async () => {
  await chmod(join(dir, 'locked-folder'), 0o755);
  await rm(dir, { recursive: true, force: true });
});

describe('library files without permission', () => {
  it.skipIf(process.getuid?.() !== 0)('reports a folder and a file it cannot read', async () => {
    const script = `
      const { walkLibrary, readAudioMetadata } = await import(${JSON.stringify(join(ROOT, 'src/music/repositories/library-files.ts'))});
      const entries = [];
      for await (const e of walkLibrary(${JSON.stringify(dir)})) entries.push({ kind: e.kind, path: e.path, reason: e.reason });
      const read = await readAudioMetadata(${JSON.stringify(join(dir, 'locked.flac'))});
      process.stdout.write(JSON.stringify({ entries, read }));`;
    const child = spawn(
      'setpriv',
      [
        // Root without the capabilities that bypass file modes: the repository (perhaps in a
        // private temporary folder) stays readable as its owner's, the locked files do not.
        '--inh-caps=-all',
        '--bounding-set=-dac_override,-dac_read_search',
        process.execPath,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code, err).toBe(0);
    const result = JSON.parse(out) as {
      entries: { kind: string; path: string; reason?: string }[];
      read: { ok: boolean; reason: string; kind: string };
    };
    expect(result.entries).toContainEqual({
      kind: 'problem',
      path: 'locked-folder',
      reason: 'cannot read the folder: permission denied',
    });
    expect(result.read).toEqual({ ok: false, kind: 'unreadable', reason: 'permission denied' });
  });
});
