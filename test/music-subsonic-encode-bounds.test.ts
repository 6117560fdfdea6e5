/**
 * Subsonic requests that start ffmpeg (a seek with `timeOffset`, the first request for a capped
 * `maxBitRate`) are bounded: at most each account's share and the server's bound run at once,
 * niced to FFMPEG_NICENESS, the rest refused with a Subsonic error document and Retry-After; a
 * capped bitrate asked for by many at once is made by one ffmpeg. Real app, real ffmpeg: the
 * running encoders are counted as child processes of this test process (the app runs in it).
 */
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ON_DEMAND_ENCODES } from '../src/music/subsonic/on-demand-encodes.js';
import { run } from './helpers/generated-audio.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

const NICENESS = 7;
const { atOnce, waiting, perUser } = ON_DEMAND_ENCODES;

let t: MusicTestApp;
let base: string;
let dir: string;
let users: TestUser[];
let keys: Map<string, string>;
/** A 10-minute song (more bytes than the sockets buffer, so an unread seek keeps its ffmpeg) and a 1-minute one. */
let longSong: string;
let shortSong: string;

/** A public track whose current version's progressive file is `file`; its Subsonic song id. */
async function songOf(owner: TestUser, file: string, seconds: number): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/tracks',
    headers: owner.headers,
    payload: { title: `Encode bound ${seconds} s`, visibility: 'public' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const trackId = created.json<{ id: string }>().id;
  const versionId = await addReadyVersion(t.connections, trackId, owner.id, {
    artist: 'Bound Players',
    album: 'Bounded',
  });
  const key = `${versionId}/progressive.m4a`;
  await t.connections.stores.transcodes.put(key, await readFile(file), { contentType: 'audio/mp4' });
  await t.connections.prisma.trackVersion.update({
    where: { id: versionId },
    data: { progressiveKey: key, durationMs: seconds * 1000, channels: 2 },
  });
  return trackId;
}

/** ffmpeg processes whose parent is this process (the app's), with their niceness. */
async function ffmpegChildren(): Promise<{ pid: number; nice: number }[]> {
  const found: { pid: number; nice: number }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid … ; the fields after comm are split from its closing parenthesis.
    const m = /^\d+ \((.*)\) (.*)$/s.exec(stat);
    if (!m || m[1] !== 'ffmpeg') continue;
    const fields = m[2]!.split(' ');
    if (Number(fields[1]) !== process.pid) continue;
    found.push({ pid: Number(entry), nice: Number(fields[16]) });
  }
  return found;
}

interface Opened {
  request: ClientRequest;
  response: IncomingMessage;
  /** The refused ones' documents, read whole; a stream that runs is left unread. */
  body: string | undefined;
}

/** GET /rest/stream on a connection of its own; resolves with the status line and headers. */
function openStream(params: Record<string, string>): Promise<Opened> {
  const url = new URL('/rest/stream', base);
  for (const [k, v] of Object.entries({ c: 'bound-test', ...params })) url.searchParams.set(k, v);
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (response) => {
      if (response.statusCode === 200) {
        resolve({ request, response, body: undefined });
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ request, response, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
  });
}

async function metric(name: string, labels: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  const line = res.body.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return Number(line?.split(' ')[1] ?? Number.NaN);
}

const gauge = async () => ({
  running: await metric('music_on_demand_encodes', 'state="running"'),
  waiting: await metric('music_on_demand_encodes', 'state="waiting"'),
});

/** Every stream closed by its client: the encodes end and their slots come free. */
async function closeAll(opened: Opened[]): Promise<void> {
  for (const o of opened) o.request.destroy();
  await vi.waitFor(
    async () => {
      expect(await gauge()).toEqual({ running: 0, waiting: 0 });
      expect(await ffmpegChildren()).toEqual([]);
    },
    { timeout: 30_000, interval: 50 },
  );
}

beforeAll(async () => {
  t = await createMusicTestApp({ RATE_LIMITS: 'off', FFMPEG_NICENESS: String(NICENESS) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'encode-bounds-'));
  const ten = join(dir, 'ten.m4a');
  // 10 s of AAC looped 60 times (a copy, no second encode): 10 minutes, about 19 MB.
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=10:sample_rate=48000'],
    ...['-ac', '2', '-c:a', 'aac', '-b:a', '256k', ten],
  ]);
  const long = join(dir, 'long.m4a');
  const short = join(dir, 'short.m4a');
  await run('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '59', '-i', ten, '-c', 'copy', long]);
  await run('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '5', '-i', ten, '-c', 'copy', short]);
  // The account of the first seeks, and enough others to fill the server's bound and queue.
  const others = Math.ceil((atOnce + waiting) / perUser);
  users = [];
  for (let i = 0; i <= others; i++) users.push(await signupUser(t.app, 'enc'));
  keys = await clientKeys(t.app, users);
  longSong = await songOf(users[0]!, long, 600);
  shortSong = await songOf(users[0]!, short, 60);
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('on-demand encodes of the Subsonic API', () => {
  it('runs at most an account share of seeks at once, niced; the rest are refused with 429 and Retry-After', async () => {
    const apiKey = keys.get(users[0]!.id)!;
    const opened = await Promise.all(
      Array.from({ length: 30 }, (_, i) => openStream({ apiKey, id: longSong, timeOffset: String(10 + i) })),
    );
    const running = opened.filter((o) => o.response.statusCode === 200);
    const refused = opened.filter((o) => o.response.statusCode !== 200);
    expect(running).toHaveLength(perUser);
    expect(refused.map((o) => o.response.statusCode)).toEqual(Array(30 - perUser).fill(429));
    for (const o of refused) {
      expect(o.response.headers['retry-after']).toBe('5');
      expect(o.body).toMatch(/status="failed"/);
      expect(o.body).toMatch(/<error code="0" message="You already have 2 streams being transcoded/);
    }
    const children = await ffmpegChildren();
    expect(children).toHaveLength(perUser);
    expect(children.map((c) => c.nice)).toEqual(Array(perUser).fill(NICENESS));
    expect(await gauge()).toEqual({ running: perUser, waiting: 0 });
    await closeAll(opened);
  });

  it('runs at most the server bound across accounts, queues a few and refuses the rest with 503', async () => {
    const each = users.map((u) => keys.get(u.id)!);
    // Every account asks for its share at once: more than the bound and its queue hold.
    const asked = each.flatMap((apiKey) =>
      Array.from({ length: perUser }, (_, i) => ({ apiKey, id: longSong, timeOffset: String(20 + i) })),
    );
    const now: Opened[] = [];
    const answers = asked.map((params) => openStream(params).then((o) => (now.push(o), o)));
    // The queued ones answer only when a slot frees: wait for those that answer now.
    const excess = asked.length - atOnce - waiting;
    await vi.waitFor(
      async () => {
        expect(now).toHaveLength(atOnce + excess);
        expect(await gauge()).toEqual({ running: atOnce, waiting });
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(now.filter((o) => o.response.statusCode === 200)).toHaveLength(atOnce);
    const busy = now.filter((o) => o.response.statusCode === 503);
    expect(busy).toHaveLength(excess);
    for (const o of busy) {
      expect(o.response.headers['retry-after']).toBe('5');
      expect(o.body).toMatch(/<error code="0" message="The server is transcoding as many streams as it can/);
    }
    expect(await ffmpegChildren()).toHaveLength(atOnce);
    // Dropping the running streams lets the queued ones in; then every client goes.
    for (const o of now) o.request.destroy();
    const later = await Promise.all(answers);
    await closeAll(later);
  });

  it('makes a capped bitrate once for many first requests at once, and serves it stored after', async () => {
    const before = await metric('music_on_demand_encodes_begun_total', 'kind="capped"');
    const requests = users.slice(0, 3).flatMap((u) =>
      Array.from({ length: perUser + 1 }, () => ({
        apiKey: keys.get(u.id)!,
        id: shortSong,
        maxBitRate: '32',
      })),
    );
    const answers = await Promise.all(
      requests.map(async (params) => {
        const url = new URL('/rest/stream', base);
        for (const [k, v] of Object.entries({ c: 'bound-test', ...params })) url.searchParams.set(k, v);
        const res = await fetch(url);
        return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(requests.length).fill(200));
    const sizes = new Set(answers.map((a) => a.bytes.length));
    expect(sizes.size).toBe(1);
    // A 32 kb/s minute, not the 256 kb/s source.
    expect([...sizes][0]).toBeLessThan((60 * 64_000) / 8);
    expect((await metric('music_on_demand_encodes_begun_total', 'kind="capped"')) - before).toBe(1);
    expect(await gauge()).toEqual({ running: 0, waiting: 0 });
  });
});
