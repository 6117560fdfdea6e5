/**
 * Durations come from the audio, not the header (issue 30, item 7): an MP3 whose Xing header
 * promises 12 s but which was cut after about 40% of its bytes is reported, on REST and /rest,
 * with the duration the pipeline decoded (that of its HLS stream), not 12.04 s.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowEvents } from './helpers/flow-events.js';
import type { MusicTestApp } from './helpers/music-app.js';
import { signupUser, uploadViaApi, type TestUser } from './helpers/music-domain.js';
import {
  readyTrack,
  startPipelineApp,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

const run = promisify(execFile);

describe('reported duration', () => {
  let t: MusicTestApp;
  let base: string;
  let flow: FlowEvents;
  let worker: WorkerProcess;
  let dir: string;
  let owner: TestUser;

  beforeAll(async () => {
    ({ t, base, flow, worker } = await startPipelineApp({ RATE_LIMITS: 'off' }));
    dir = await mkdtemp(join(tmpdir(), 'duration-'));
    owner = await signupUser(t.app, 'dur');
  }, 120_000);

  afterAll(async () => {
    if (worker) await stopWorkerProcess(worker);
    await flow?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a truncated MP3 is reported with the duration decoded, not the header promise', async () => {
    const file = join(dir, 'full.mp3');
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=12:sample_rate=44100'],
      ...['-c:a', 'libmp3lame', '-b:a', '128k', '-metadata', 'title=Truncated', file],
    ]);
    const whole = await readFile(file);
    const cut = whole.subarray(0, Math.round(whole.length * 0.4));
    const assetId = await uploadViaApi(t.app, owner, cut, 'audio/mpeg');
    const asset = await t.connections.prisma.asset.findUniqueOrThrow({ where: { id: assetId } });
    // The probe believes the header.
    expect((asset.probe as { duration_ms: number }).duration_ms).toBeGreaterThan(11_900);

    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
    const trackId = await readyTrack(t, flow, owner, assetId, { title: 'Truncated', visibility: 'unlisted' });
    const version = (await call('GET', `/api/v1/tracks/${trackId}`)).json().current_version;
    expect(version.status).toBe('ready');
    // What was decoded: about 4.8 s (40% of 12 s), as long as the HLS stream.
    expect(version.duration_ms).toBeGreaterThan(4_000);
    expect(version.duration_ms).toBeLessThan(5_600);
    const master = await (await fetch(`${base}${version.hls_url}`)).text();
    const variantUri = master.split('\n').find((l) => l !== '' && !l.startsWith('#'))!;
    const variant = await (await fetch(new URL(variantUri, `${base}${version.hls_url}`))).text();
    const hlsSeconds = [...variant.matchAll(/#EXTINF:([\d.]+)/g)].reduce((s, m) => s + Number(m[1]), 0);
    expect(Math.abs(version.duration_ms - hlsSeconds * 1000)).toBeLessThan(50);

    const key = (await call('POST', '/api/v1/me/client-keys', { name: 'duration' })).json().key as string;
    const found = await fetch(
      `${base}/rest/search3?f=json&query=Truncated&apiKey=${encodeURIComponent(key)}`,
    );
    const song = (
      (await found.json()) as { 'subsonic-response': { searchResult3: { song: { duration: number }[] } } }
    )['subsonic-response'].searchResult3.song[0]!;
    expect(song.duration).toBe(Math.round(version.duration_ms / 1000));
  }, 240_000);
});
