/**
 * The Subsonic bench's peer: Debian's supysonic over the same songs (copies of one tiny MP3
 * re-tagged with mutagen, scanned by supysonic-cli), measured the same way.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAudio } from '../../test/helpers/generated-audio.js';
import { measure, progress, type Measured } from './subsonic-measure.js';
import { run } from './subsonic-serve.js';

/** supysonic over the same songs, when the Debian package is installed; undefined otherwise. */
export async function supysonic(size: number): Promise<Measured | string> {
  if (spawnSync('sh', ['-c', 'command -v supysonic-cli']).status !== 0)
    return 'supysonic is not installed (apt-get install -y supysonic): not measured';
  progress(`supysonic: writing ${size} tagged files`);
  const dir = await mkdtemp(join(tmpdir(), 'supysonic-bench-'));
  const music = join(dir, 'music');
  await mkdir(music);
  const template = join(dir, 'template.mp3');
  // 0.2 s of mono silence, 32 kb/s MP3.
  const silence = { seconds: 0.2, sineSeconds: 0, channels: 1, sampleRate: 22050 } as const;
  await generateAudio(template, { ...silence, codec: 'libmp3lame', bitRate: '32k' });
  const script = [
    'import shutil, sys, os',
    'from mutagen.easyid3 import EasyID3',
    'src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])',
    'words = ["amber", "blue", "cedar", "dusk", "ember"]',
    'for i in range(n):',
    '    album = i // 10; artist = album // 10',
    '    d = os.path.join(out, f"Artist {artist}", f"Album {album}")',
    '    os.makedirs(d, exist_ok=True)',
    '    f = os.path.join(d, f"{i}.mp3")',
    '    shutil.copyfile(src, f)',
    '    t = EasyID3()',
    '    t.update({"title": f"Song {i} {words[i % 5]}", "artist": f"Artist {artist}", "album": f"Album {album}", "genre": f"Genre {album % 20}", "tracknumber": str(i % 10 + 1), "date": str(1970 + album % 50)})',
    '    t.save(f)',
  ].join('\n');
  // Debian's python (supysonic's own mutagen), not whichever python3 is first on PATH.
  await run('/usr/bin/python3', ['-c', script, template, music, String(size)], { maxBuffer: 1 << 20 });
  const configFile = join(dir, 'supysonic.conf');
  await writeFile(
    configFile,
    `[base]\ndatabase_uri = sqlite:///${join(dir, 'supysonic.db')}\n[webapp]\ncache_dir = ${join(dir, 'cache')}\nlog_level = WARNING\n[daemon]\nsocket = ${join(dir, 'daemon.sock')}\n`,
  );
  // supysonic reads ./supysonic.conf (among fixed paths): every command runs in `dir`.
  const cli = (args: string[]) => run('supysonic-cli', args, { cwd: dir, maxBuffer: 16 << 20 });
  await cli(['user', 'add', 'bench', '-p', 'benchpass']);
  await cli(['folder', 'add', 'library', music]);
  progress('supysonic: scanning');
  await cli(['folder', 'scan', 'library']);
  progress('supysonic: serving');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(
    'supysonic-server',
    ['-S', 'waitress', '--host', '127.0.0.1', '--port', String(port)],
    { cwd: dir, stdio: 'ignore' },
  );
  try {
    const base = `http://127.0.0.1:${port}/rest/`;
    const query = 'u=bench&p=benchpass&v=1.12.0&c=bench&f=json';
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`${base}ping.view?${query}`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200)); // polling a server we started: no event tells us it listens
    }
    const list = (await (await fetch(`${base}getAlbumList2.view?type=newest&size=1&${query}`)).json()) as {
      'subsonic-response': { albumList2: { album: { id: string }[] } };
    };
    return await measure(`supysonic ${size}`, {
      base,
      query,
      albumId: list['subsonic-response'].albumList2.album[0]!.id,
      pid: server.pid ?? 0,
    });
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  }
}
