/**
 * The OpenSubsonic end-to-end fixture: a real app (PostgreSQL, Redis, ffmpeg), the music-worker
 * as a real process, media in the S3 store (the run's s3rver), two users, a client key, and two
 * tagged songs through the pipeline (the owner's public one with a cover, the other's private
 * one); plus the probes and the XML/JSON normaliser the Subsonic tests share.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { SubsonicAPI } from 'subsonic-api';
import { afterAll, beforeAll, expect } from 'vitest';
import type { FlowEvents } from './flow-events.js';
import type { MusicTestApp } from './music-app.js';
import { s3StoreEnv, uniqueSuffix } from './music-env.js';
import { signupUser, uploadViaApi, type TestUser } from './music-domain.js';
import { readyTrack, startPipelineApp, stopWorkerProcess, type WorkerProcess } from './music-worker.js';

const run = promisify(execFile);

export const TAGS = {
  title: 'Subsonic Sine',
  artist: 'Sine Players',
  album_artist: 'The Sine Collective',
  album: 'Pure Tones',
  genre: 'Test Tones',
  track: '2/9',
  date: '2024-03-01',
};

/** An 8 s stereo sine, tagged, with an attached cover picture (FLAC). */
export async function taggedSong(
  dir: string,
  name: string,
  tags: Record<string, string>,
  cover: boolean,
): Promise<Buffer> {
  const file = join(dir, `${name}.flac`);
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=8:sample_rate=44100'];
  if (cover) args.push('-f', 'lavfi', '-i', 'color=c=red:s=640x480:d=1');
  args.push('-map', '0:a', '-ac', '2');
  if (cover) args.push('-map', '1:v', '-frames:v', '1', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic');
  for (const [k, v] of Object.entries(tags)) args.push('-metadata', `${k}=${v}`);
  args.push('-c:a', 'flac', file);
  await run('ffmpeg', args);
  return readFile(file);
}

/** ffprobe's reading of bytes: duration and the first stream's codec and size. */
export async function probe(dir: string, bytes: Buffer, name: string) {
  const file = join(dir, name);
  await writeFile(file, bytes);
  // Decode every sample (not the header's duration): the bytes must be playable audio.
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,width,height',
    '-of',
    'json',
    file,
  ]);
  const streams = (
    JSON.parse(stdout) as { streams: { codec_name: string; width?: number; height?: number }[] }
  ).streams;
  return { streams };
}

export async function decodedSeconds(dir: string, bytes: Buffer, name: string): Promise<number> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-ar', '8000', '-f', 's16le', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return stdout.length / 2 / 8000;
}

/** XML and JSON answers reduced to one shape: every value a string, every element a list, empty lists dropped. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'xmlns') continue;
      const key = k === '#text' ? 'value' : k;
      if (Array.isArray(v)) {
        if (v.length > 0) out[key] = v.map(normalise);
      } else if (typeof v === 'object' && v !== null) out[key] = [normalise(v)];
      else out[key] = String(v);
    }
    return out;
  }
  return String(value);
}

export const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  ignoreDeclaration: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

export interface SubsonicState {
  t: MusicTestApp;
  base: string;
  dir: string;
  owner: TestUser;
  other: TestUser;
  /** The owner's client key and its id. */
  key: string;
  keyId: string;
  /** The owner's public song; the other user's private one. */
  songId: string;
  privateSongId: string;
}

/** Registers the fixture's beforeAll/afterAll in the calling describe; state() once they ran. */
export function subsonicFixture() {
  let state: SubsonicState | undefined;
  let worker: WorkerProcess | undefined;
  let flow: FlowEvents | undefined;
  let app: MusicTestApp | undefined;
  let scratch: string | undefined;
  const s = (): SubsonicState => {
    if (!state) throw new Error('the Subsonic fixture is not set up yet');
    return state;
  };

  const call = (method: string, url: string, who?: TestUser, payload?: unknown) =>
    s().t.app.inject({
      method: method as 'GET',
      url,
      ...(who ? { headers: who.headers } : {}),
      ...(payload ? { payload } : {}),
    });

  /** Upload, track, version; resolves once the pipeline made the version ready. */
  async function publish(
    t: MusicTestApp,
    events: FlowEvents,
    who: TestUser,
    audio: Buffer,
    visibility: string,
    title: string,
  ): Promise<string> {
    return readyTrack(t, events, who, await uploadViaApi(t.app, who, audio), { title, visibility });
  }

  const client = (auth: { apiKey: string } | { username: string; password: string }) =>
    new SubsonicAPI({ url: s().base, auth });

  const raw = async (path: string, params: Record<string, string | string[]>, init: RequestInit = {}) => {
    const url = new URL(`/rest/${path}`, s().base);
    for (const [k, v] of Object.entries(params))
      for (const one of [v].flat()) url.searchParams.append(k, one);
    return fetch(url, init);
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
  const jsonOf = async (res: Response): Promise<any> =>
    ((await res.json()) as Record<string, unknown>)['subsonic-response'];

  beforeAll(async () => {
    const store = s3StoreEnv(`sub${uniqueSuffix()}-`);
    const started = await startPipelineApp({ RATE_LIMITS: 'off', ...store }, store);
    ({ flow, worker } = started);
    const { t, base } = started;
    app = t;
    const dir = await mkdtemp(join(tmpdir(), 'subsonic-'));
    scratch = dir;
    const owner = await signupUser(t.app, 'sub');
    const other = await signupUser(t.app, 'oth');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: owner.headers,
      payload: { name: 'Feishin on my laptop' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { key, id: keyId } = created.json<{ key: string; id: string }>();
    const [songId, privateSongId] = await Promise.all([
      publish(t, flow, owner, await taggedSong(dir, 'tagged', TAGS, true), 'public', TAGS.title),
      publish(
        t,
        flow,
        other,
        await taggedSong(
          dir,
          'secret',
          { title: 'Secret Sine', artist: 'Hidden Artist', album: 'Hidden Album' },
          false,
        ),
        'private',
        'Secret Sine',
      ),
    ]);
    state = { t, base, dir, owner, other, key, keyId, songId, privateSongId };
  }, 300_000);

  afterAll(async () => {
    if (worker) expect(await stopWorkerProcess(worker)).toBe(0);
    await flow?.close();
    await app?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  return { state: s, call, client, raw, jsonOf };
}
