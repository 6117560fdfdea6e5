/**
 * A generated music folder for the library import tests and bench: albums in MP3, FLAC, Ogg,
 * M4A and WAV made by ffmpeg (short clips, tags, embedded covers, cover.jpg / folder.png beside
 * others), many MP3s that differ only by an ID3v1 tag appended in JS (a few hundred files with
 * few ffmpeg runs), and each kind of bad file. No test-runner imports: the bench uses it too.
 */
import { copyFile, mkdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './generated-audio.js';

export interface GoodFile {
  path: string;
  title: string;
  artist: string;
  albumArtist: string;
  album: string;
  track: number;
  disc: number;
  /** embedded, side (a cover file beside it) or none */
  cover: 'embedded' | 'side' | 'none';
}

export interface LibraryTree {
  root: string;
  good: GoodFile[];
  /** Path (relative) -> the words its reason must contain. */
  bad: Record<string, string>;
  /** Files that are not audio and not bad (listed as skipped). */
  notAudio: string[];
}

const FORMATS = [
  { ext: 'mp3', codec: ['-c:a', 'libmp3lame', '-b:a', '64k'], cover: 'embedded' },
  { ext: 'flac', codec: ['-c:a', 'flac'], cover: 'embedded' },
  { ext: 'ogg', codec: ['-c:a', 'libvorbis', '-q:a', '0'], cover: 'side' },
  { ext: 'm4a', codec: ['-c:a', 'aac', '-b:a', '64k'], cover: 'embedded' },
  { ext: 'wav', codec: ['-c:a', 'pcm_s16le'], cover: 'side' },
] as const;

async function ffmpegClip(
  path: string,
  codec: readonly string[],
  tags: Record<string, string>,
  cover: boolean,
  freq: number,
): Promise<void> {
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=${freq}:d=0.4:sample_rate=22050`];
  if (cover) args.push('-f', 'lavfi', '-i', 'color=c=green:s=96x96:d=1');
  args.push('-map', '0:a');
  if (cover) args.push('-map', '1:v', '-frames:v', '1', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic');
  args.push(...codec);
  for (const [k, v] of Object.entries(tags)) args.push('-metadata', `${k}=${v}`);
  args.push(path);
  await run('ffmpeg', args);
}

async function image(path: string, color: string): Promise<void> {
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=64x64:d=1`,
    '-frames:v',
    '1',
    path,
  ]);
}

function id3v1(title: string, artist: string, album: string, track: number): Buffer {
  const b = Buffer.alloc(128);
  b.write('TAG', 0, 'latin1');
  b.write(title.slice(0, 30), 3, 'latin1');
  b.write(artist.slice(0, 30), 33, 'latin1');
  b.write(album.slice(0, 30), 63, 'latin1');
  b.write('2020', 93, 'latin1');
  b[125] = 0;
  b[126] = track;
  b[127] = 255;
  return b;
}

/**
 * `bulk`: MP3 copies that differ by their ID3v1 tag (albums of 10). `bad`: add each bad kind.
 */
export async function generateLibraryTree(
  root: string,
  options: { bulk: number; bad: boolean },
): Promise<LibraryTree> {
  const good: GoodFile[] = [];
  await mkdir(root, { recursive: true });
  const made: Promise<void>[] = [];
  let freq = 300;
  for (const f of FORMATS) {
    // One album per format, two discs of two tracks; album artist set.
    const albumDir = join(root, `Artist ${f.ext}`, `Album ${f.ext}`);
    await mkdir(albumDir, { recursive: true });
    if (f.cover === 'side') await image(join(albumDir, f.ext === 'ogg' ? 'cover.jpg' : 'folder.png'), 'red');
    for (const disc of [1, 2])
      for (const track of [1, 2]) {
        const name = `${disc}-0${track} Song ${f.ext} ${disc}${track}.${f.ext}`;
        const g: GoodFile = {
          path: `Artist ${f.ext}/Album ${f.ext}/${name}`,
          title: `Song ${f.ext} ${disc}${track}`,
          artist: `Performer ${f.ext}`,
          // RIFF INFO has no album artist or disc number.
          albumArtist: f.ext === 'wav' ? `Performer ${f.ext}` : `Artist ${f.ext}`,
          album: `Album ${f.ext}`,
          track,
          disc: f.ext === 'wav' ? 0 : disc,
          cover: f.cover,
        };
        good.push(g);
        const tags = {
          title: g.title,
          artist: g.artist,
          album_artist: g.albumArtist,
          album: g.album,
          track: `${track}/2`,
          disc: `${disc}/2`,
          date: '2019-05-01',
        };
        made.push(ffmpegClip(join(root, g.path), f.codec, tags, f.cover === 'embedded', (freq += 20)));
      }
  }
  // A compilation: several artists, no album artist, the compilation flag.
  await mkdir(join(root, 'Compilations', 'Summer Hits'), { recursive: true });
  for (const n of [1, 2, 3]) {
    const g: GoodFile = {
      path: `Compilations/Summer Hits/0${n}.flac`,
      title: `Hit ${n}`,
      artist: `Band ${n}`,
      albumArtist: 'Various Artists',
      album: 'Summer Hits',
      track: n,
      disc: 0,
      cover: 'none',
    };
    good.push(g);
    made.push(
      ffmpegClip(
        join(root, g.path),
        ['-c:a', 'flac'],
        { title: g.title, artist: g.artist, album: g.album, track: String(n), compilation: '1' },
        false,
        (freq += 20),
      ),
    );
  }
  await Promise.all(made);
  if (options.bulk > 0) {
    const base = join(root, '.base.mp3');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=500:d=0.3:sample_rate=22050',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '32k',
      '-write_xing',
      '0',
      '-map_metadata',
      '-1',
      '-id3v2_version',
      '0',
      base,
    ]);
    const bytes = await readFile(base);
    for (let i = 0; i < options.bulk; i++) {
      const album = `Bulk Album ${Math.floor(i / 10)}`;
      const dir = join(root, 'Bulk', album);
      if (i % 10 === 0) await mkdir(dir, { recursive: true });
      const title = `Bulk ${i}`;
      const path = `Bulk/${album}/${String(i % 10).padStart(2, '0')} ${title}.mp3`;
      await writeFile(
        join(root, path),
        Buffer.concat([bytes, id3v1(title, 'Bulk Artist', album, (i % 10) + 1)]),
      );
      good.push({
        path,
        title,
        artist: 'Bulk Artist',
        albumArtist: 'Bulk Artist',
        album,
        track: (i % 10) + 1,
        disc: 0,
        cover: 'none',
      });
    }
    await rm(base);
  }
  const bad: Record<string, string> = {};
  const notAudio: string[] = [];
  if (options.bad) {
    const dir = join(root, 'Bad');
    await mkdir(dir, { recursive: true });
    const flac = await readFile(join(root, good.find((g) => g.path.endsWith('.flac'))?.path ?? ''));
    await writeFile(join(dir, 'truncated.flac'), flac.subarray(0, 600));
    bad['Bad/truncated.flac'] = 'truncated';
    const m4a = await readFile(join(root, good.find((g) => g.path.endsWith('.m4a'))?.path ?? ''));
    await writeFile(join(dir, 'truncated.m4a'), m4a.subarray(0, Math.floor(m4a.length / 2)));
    bad['Bad/truncated.m4a'] = 'truncated';
    const wav = await readFile(join(root, good.find((g) => g.path.endsWith('.wav'))?.path ?? ''));
    await writeFile(join(dir, 'truncated.wav'), wav.subarray(0, Math.floor(wav.length / 2)));
    bad['Bad/truncated.wav'] = 'truncated';
    await writeFile(
      join(dir, 'truncated.mp3'),
      (await readFile(join(root, good.find((g) => g.path.endsWith('.mp3'))?.path ?? ''))).subarray(0, 2000),
    );
    bad['Bad/truncated.mp3'] = 'truncated';
    await writeFile(join(dir, 'not-audio.mp3'), 'this is a text file with an audio name\n'.repeat(20));
    notAudio.push('Bad/not-audio.mp3');
    const mp3 = await readFile(join(root, good.find((g) => g.path.endsWith('.mp3'))?.path ?? ''));
    const badTag = Buffer.from(mp3);
    badTag[3] = 9;
    await writeFile(join(dir, 'bad-tags.mp3'), badTag);
    bad['Bad/bad-tags.mp3'] = 'unreadable tags';
    await writeFile(join(dir, 'empty.flac'), '');
    bad['Bad/empty.flac'] = 'empty file';
    await writeFile(join(dir, 'huge.flac'), '');
    await truncate(join(dir, 'huge.flac'), 2 * 1024 ** 3);
    bad['Bad/huge.flac'] = 'largest original accepted';
    await mkdir(join(dir, 'loop'), { recursive: true });
    await symlink('..', join(dir, 'loop', 'up'));
    bad['Bad/loop/up'] = 'symlink loop';
    await symlink('self', join(dir, 'self'));
    bad['Bad/self'] = 'symlink loop';
    await writeFile(
      Buffer.concat([Buffer.from(`${dir}/latin1-`), Buffer.from([0xe9]), Buffer.from('.mp3')]),
      mp3,
    );
    bad['Bad/latin1-\\xe9.mp3'] = 'not valid UTF-8';
    await copyFile(join(root, good[0]?.path ?? ''), join(dir, 'duplicate.mp3'));
    await image(join(dir, 'scan-back.jpg'), 'blue');
    notAudio.push('Bad/scan-back.jpg');
  }
  return { root, good, bad, notAudio };
}
