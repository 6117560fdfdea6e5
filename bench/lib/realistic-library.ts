/**
 * A music folder the size of a real one for the library import bench: `files` tracks in album
 * folders (`<letter>/<artist>/<year> - <album>/<nn> - <title>.<ext>`, a cover.jpg in each album,
 * half the MP3 albums with the cover embedded too), most of them MP3 (CBR 128 to 320 kbps) and
 * some FLAC, of tracks of 3 to 5 minutes. Each file is a copy of one of a few ffmpeg encodes
 * (stereo pink noise, so FLAC compresses like music does) under its own tags written in JS
 * (audio-tags.ts): real, decodable frames, a different sha256 for every file.
 *
 * `averageBytes` scales every track's duration by one factor so the folder fits a disk budget:
 * at about 8 MB a file the durations are the real 3 to 5 minutes; the spread of sizes (and of
 * formats and bit rates) stays that of a real library.
 */
import { open, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../../test/helpers/generated-audio.js';
import { flacHead, flacParts, id3v2, type FileTags } from './audio-tags.js';

/** How a library's files are encoded, and how many of them (weights sum to 1). */
const KINDS = [
  { name: 'MP3 128 kbps', ext: 'mp3', kbps: 128, weight: 0.3 },
  { name: 'MP3 192 kbps', ext: 'mp3', kbps: 192, weight: 0.2 },
  { name: 'MP3 256 kbps', ext: 'mp3', kbps: 256, weight: 0.15 },
  { name: 'MP3 320 kbps', ext: 'mp3', kbps: 320, weight: 0.3 },
  { name: 'FLAC 16-bit 44.1 kHz', ext: 'flac', kbps: 0, weight: 0.05 },
] as const;

/** Real track lengths, seconds: one encode of each per kind. */
const DURATIONS = [180, 210, 240, 270, 300];
/** FLAC of the bench's noise, kbit/s (measured: a CD's FLAC is 700 to 1,100). */
const FLAC_KBPS = 1064;
const COVER_BYTES = 250_000;

export interface RealisticLibrary {
  root: string;
  /** Top-level folders (by artist initial), in walk order, with their files and bytes. */
  groups: { name: string; files: number; bytes: number }[];
  files: number;
  bytes: number;
  /** Seconds of audio in all files. */
  audioSeconds: number;
  /** Track durations are the real ones times this. */
  scale: number;
  byKind: { name: string; files: number; bytes: number }[];
}

/** Deterministic, so two runs make the same folder. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'Northern',
  'Glass',
  'Echo',
  'Velvet',
  'Paper',
  'Silver',
  'Midnight',
  'Hollow',
  'Summer',
  'Iron',
  'Quiet',
  'Neon',
  'Wild',
  'Static',
  'Golden',
  'Distant',
  'Broken',
  'Electric',
  'Little',
  'Blue',
  'Ólafur',
  'Zoë',
  'Ångström',
  'Bjørn',
  'Café',
  'Señor',
  'Déjà',
  'Über',
  '東京',
  'Москва',
];
const NOUNS = [
  'Lights',
  'Rivers',
  'Machines',
  'Gardens',
  'Wolves',
  'Hearts',
  'Signals',
  'Roads',
  'Dreams',
  'Waves',
  'Birds',
  'Cities',
  'Ghosts',
  'Stars',
  'Tides',
  'Mirrors',
  'Engines',
  'Forests',
  'Voices',
  'Horses',
];
const GENRES = [
  'Rock',
  'Pop',
  'Electronic',
  'Jazz',
  'Hip-Hop',
  'Folk',
  'Classical',
  'Ambient',
  'Metal',
  'Soul',
];

/** The audio of one kind and duration: MP3 frames (no tags) or a whole FLAC file. */
async function encode(
  dir: string,
  kind: (typeof KINDS)[number],
  seconds: number,
  seed: number,
): Promise<Buffer> {
  const file = join(dir, `${kind.ext}-${kind.kbps}-${seconds}.${kind.ext}`);
  const noise = (s: number) => `anoisesrc=d=${seconds.toFixed(2)}:c=pink:r=44100:a=0.25:seed=${s}`;
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', noise(seed), '-f', 'lavfi', '-i', noise(seed + 1)];
  args.push('-filter_complex', '[0:a][1:a]amerge=inputs=2[a]', '-map', '[a]', '-map_metadata', '-1');
  if (kind.ext === 'mp3')
    args.push('-c:a', 'libmp3lame', '-b:a', `${kind.kbps}k`, '-id3v2_version', '0', '-write_id3v1', '0');
  else args.push('-sample_fmt', 's16', '-c:a', 'flac');
  await run('ffmpeg', [...args, file]);
  const bytes = await readFile(file);
  await rm(file);
  return bytes;
}

/** Expected bytes of a file of the mix at real durations (for the scale factor). */
function realAverageBytes(): number {
  const meanSeconds = DURATIONS.reduce((a, b) => a + b, 0) / DURATIONS.length;
  return (
    KINDS.reduce((n, k) => n + k.weight * (((k.kbps || FLAC_KBPS) * 1000) / 8) * meanSeconds, 0) +
    COVER_BYTES / 4
  );
}

async function cover(dir: string, n: number): Promise<Buffer> {
  const file = join(dir, `cover-${n}.jpg`);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=800x800',
    '-vf',
    `noise=alls=30:allf=t,hue=h=${n * 50}`,
    '-frames:v',
    '1',
    '-q:v',
    '5',
    file,
  ]);
  const bytes = await readFile(file);
  await rm(file);
  return bytes;
}

/** Lanes of `fn` over 0..n-1, `limit` at once; stops early when `signal` aborts. */
async function lanes(
  n: number,
  limit: number,
  fn: (i: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < n && !signal?.aborted) await fn(next++);
    }),
  );
}

async function writeParts(path: string, parts: Buffer[]): Promise<void> {
  const fh = await open(path, 'w');
  try {
    await fh.writev(parts);
  } finally {
    await fh.close();
  }
}

interface PlannedFile {
  path: string;
  kind: number;
  master: number;
  tags: FileTags;
  embed: boolean;
}

export async function generateRealisticLibrary(
  root: string,
  options: { files: number; averageBytes: number; signal?: AbortSignal },
): Promise<RealisticLibrary> {
  const scale = options.averageBytes / realAverageBytes();
  const work = join(root, '..', 'encodes');
  await mkdir(work, { recursive: true });
  const durations = DURATIONS.map((d) => Math.max(5, d * scale));
  const masters: { kind: number; seconds: number; bytes: Buffer }[] = [];
  const jobs = KINDS.flatMap((_, k) => durations.map((seconds, d) => ({ k, seconds, seed: 10 * k + d + 1 })));
  await lanes(
    jobs.length,
    2,
    async (i) => {
      const { k, seconds, seed } = jobs[i]!;
      masters[i] = { kind: k, seconds, bytes: await encode(work, KINDS[k]!, seconds, seed) };
    },
    options.signal,
  );
  const covers = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => cover(work, n)));
  await rm(work, { recursive: true, force: true });
  options.signal?.throwIfAborted();

  const rnd = random(49);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const planned: PlannedFile[] = [];
  const albums: { dir: string; cover: Buffer }[] = [];
  for (let artistNo = 0; planned.length < options.files; artistNo++) {
    const artist = `${pick(WORDS)} ${pick(NOUNS)} ${artistNo}`;
    const letter = artist[0]!.toUpperCase();
    for (
      let a = 0, albumCount = 1 + Math.floor(rnd() * 4);
      a < albumCount && planned.length < options.files;
      a++
    ) {
      const year = 1965 + Math.floor(rnd() * 60);
      const album = `${pick(WORDS)} ${pick(NOUNS)}${rnd() < 0.1 ? ' (Live)' : ''}`;
      const dir = `${letter}/${artist}/${year} - ${album}`;
      // One encoding per album, as a rip is; weights as KINDS.
      let w = rnd();
      const kind = Math.max(
        0,
        KINDS.findIndex((k) => (w -= k.weight) < 0),
      );
      const tracks = 8 + Math.floor(rnd() * 7);
      const cover = Buffer.concat([pick(covers), Buffer.from(`\n${dir}`)]);
      albums.push({ dir, cover });
      const embed = KINDS[kind]!.ext === 'mp3' && albums.length % 2 === 0;
      const genre = pick(GENRES);
      for (let t = 1; t <= tracks && planned.length < options.files; t++) {
        const title = `${pick(NOUNS)} of the ${pick(WORDS)} ${pick(NOUNS)}${rnd() < 0.1 ? ' (Don\'t "Stop" Mix)' : ''}`;
        planned.push({
          path: `${dir}/${String(t).padStart(2, '0')} - ${title.replaceAll('"', "'")}.${KINDS[kind]!.ext}`,
          kind,
          master: kind * durations.length + Math.floor(rnd() * durations.length),
          tags: { title, artist, albumArtist: artist, album, track: t, tracks, disc: 1, year, genre },
          embed,
        });
      }
    }
  }

  for (const a of albums) await mkdir(join(root, a.dir), { recursive: true });
  await lanes(
    albums.length,
    4,
    (i) => writeParts(join(root, albums[i]!.dir, 'cover.jpg'), [albums[i]!.cover]),
    options.signal,
  );
  const flac = new Map<number, { keep: Buffer[]; frames: Buffer }>();
  const coverOf = new Map(albums.map((a) => [a.dir, a.cover]));
  const sizes: number[] = [];
  await lanes(
    planned.length,
    4,
    async (i) => {
      const f = planned[i]!;
      const master = masters[f.master]!;
      let parts: Buffer[];
      if (KINDS[f.kind]!.ext === 'mp3') {
        const dir = f.path.slice(0, f.path.lastIndexOf('/'));
        parts = [id3v2(f.tags, f.embed ? coverOf.get(dir) : undefined), master.bytes];
      } else {
        let p = flac.get(f.master);
        if (!p) {
          const { keep, framesAt } = flacParts(master.bytes);
          p = { keep, frames: master.bytes.subarray(framesAt) };
          flac.set(f.master, p);
        }
        parts = [flacHead(p.keep, f.tags), p.frames];
      }
      await writeParts(join(root, f.path), parts);
      sizes[i] = parts.reduce((n, b) => n + b.length, 0);
    },
    options.signal,
  );
  options.signal?.throwIfAborted();

  const groups = new Map<string, { name: string; files: number; bytes: number }>();
  const byKind = KINDS.map((k) => ({ name: k.name, files: 0, bytes: 0 }));
  let audioSeconds = 0;
  for (const [i, f] of planned.entries()) {
    const name = f.path.slice(0, f.path.indexOf('/'));
    const g = groups.get(name) ?? { name, files: 0, bytes: 0 };
    g.files++;
    g.bytes += sizes[i]!;
    groups.set(name, g);
    byKind[f.kind]!.files++;
    byKind[f.kind]!.bytes += sizes[i]!;
    audioSeconds += masters[f.master]!.seconds;
  }
  const ordered = [...groups.values()].sort((a, b) =>
    Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)),
  );
  return {
    root,
    groups: ordered,
    files: planned.length,
    bytes: sizes.reduce((a, b) => a + b, 0),
    audioSeconds,
    scale,
    byKind,
  };
}
