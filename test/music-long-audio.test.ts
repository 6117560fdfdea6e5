/**
 * Opt-in (MUSIC_LONG_AUDIO=1; minutes of CPU): a generated 3-hour, 32 kb/s mono MP3 through the
 * real music-worker's waveform and loudness jobs, end to end (store, cache, ffmpeg, peaks,
 * publish, database). The waveform has the length and resolution 3 hours give, BBC's reader
 * parses it, and the worker's peak memory stays far below the PCM that went through it
 * (3 h x 22050 Hz x 2 bytes = 476 MB), i.e. the PCM was streamed, never held.
 *
 *   MUSIC_LONG_AUDIO=1 npx vitest run test/music-long-audio.test.ts
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import WaveformData, { type JsonWaveformData } from 'waveform-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_JOB_OPTIONS } from '../src/music/repositories/version-flow.js';
import { versionJobId } from '../src/music/jobs/queues.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  run,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

const HOURS = 3;
const SECONDS = HOURS * 3600;
const RATE = 22050;
const AMPLITUDE = 0.5;
const PCM_BYTES = SECONDS * RATE * 2;
const MB = 1024 * 1024;

/** Peak resident memory (VmHWM) of a process, bytes. */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

describe.skipIf(!process.env.MUSIC_LONG_AUDIO)('a 3-hour file through the waveform and loudness jobs', () => {
  let t: MusicTestApp;
  let bull: Redis;
  let events: Record<'waveform' | 'loudness', QueueEvents>;
  let worker: WorkerProcess | undefined;
  let dir: string;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    bull = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    const prefix = t.config.queuePrefix;
    events = {
      waveform: new QueueEvents('waveform', { connection: bull.duplicate(), prefix }),
      loudness: new QueueEvents('loudness', { connection: bull.duplicate(), prefix }),
    };
    await Promise.all(Object.values(events).map((e) => e.waitUntilReady()));
    dir = await mkdtemp(join(tmpdir(), 'long-audio-'));
  });

  afterAll(async () => {
    if (worker) await stopWorkerProcess(worker, 'SIGKILL');
    await Promise.all(Object.values(events ?? {}).map((e) => e.close()));
    bull?.disconnect();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'peaks of the right length and resolution, loudness saved, memory bounded',
    { timeout: 3_600_000 },
    async () => {
      // One minute encoded, then repeated by stream copy (no re-encoding): 3 h, about 43 MB.
      const minute = join(dir, 'minute.mp3');
      const long = join(dir, 'long.mp3');
      await run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', `aevalsrc=${AMPLITUDE}*sin(2*PI*440*t):s=${RATE}:d=60`],
        ...['-c:a', 'libmp3lame', '-b:a', '32k', minute],
      ]);
      await run('ffmpeg', [
        ...['-v', 'error', '-stream_loop', String(HOURS * 60 - 1), '-i', minute],
        ...['-c', 'copy', long],
      ]);
      const sourceKey = `long/${Date.now()}.mp3`;
      await t.connections.stores.originals.put(sourceKey, await readFile(long));
      const data = await createVersionRows(t.connections, sourceKey);

      worker = await startWorkerProcess(t.config);
      const startPeak = await peakRss(worker.child.pid!);
      const completed = (name: 'waveform' | 'loudness'): Promise<void> =>
        new Promise((resolve, reject) => {
          const id = versionJobId(name, data.versionId);
          events[name].on('completed', ({ jobId }) => jobId === id && resolve());
          events[name].on(
            'failed',
            ({ jobId, failedReason }) => jobId === id && reject(new Error(failedReason)),
          );
        });
      const done = Promise.all([completed('waveform'), completed('loudness')]);
      for (const name of ['waveform', 'loudness'] as const) {
        const queue = new Queue(name, { connection: bull, prefix: t.config.queuePrefix });
        await queue.add(name, data, { ...MEDIA_JOB_OPTIONS, jobId: versionJobId(name, data.versionId) });
        await queue.close();
      }
      await done;
      const endPeak = await peakRss(worker.child.pid!);

      // Memory: the worker's peak grows by the peaks (465k pixels) and garbage PCM chunks, not by the PCM
      // (476 MB; the worker's own start-up peak, under tsx, is about 200 MB).
      process.stdout.write(
        `3-hour file: worker peak RSS ${(startPeak / MB).toFixed(0)} MB at start, ${(endPeak / MB).toFixed(0)} MB after (PCM ${(PCM_BYTES / MB).toFixed(0)} MB)\n`,
      );
      expect(endPeak - startPeak, `peak RSS ${startPeak / MB} -> ${endPeak / MB} MB`).toBeLessThan(
        PCM_BYTES / 3,
      );

      const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(version.waveformKey).toBe(`${data.versionId}/waveform.json`);
      const store = t.connections.stores.waveforms;
      const bytes = async (key: string): Promise<Buffer> =>
        Buffer.concat(await (await store.get(key))!.body.toArray());
      const json = JSON.parse((await bytes(version.waveformKey!)).toString()) as JsonWaveformData;
      const dat = await bytes(`${data.versionId}/waveform.dat`);
      const expected = (SECONDS * RATE) / 512;
      for (const wf of [WaveformData.create(json), WaveformData.create(new Uint8Array(dat).buffer)]) {
        expect(wf.sample_rate).toBe(RATE);
        expect(wf.scale).toBe(512);
        // Every loop of the MP3 carries its encoder padding (a few ms), so a little over 3 h.
        expect(wf.length).toBeGreaterThanOrEqual(Math.floor(expected));
        expect(wf.length).toBeLessThan(expected * 1.005);
        const channel = wf.channel(0);
        // Mid-minute pixels: at each repeat's seams the MP3's encoder delay and padding are quiet.
        for (const at of [45, 90, 178].map((m) => Math.floor(((m * 60 + 30) * RATE) / 512))) {
          expect(Math.abs(channel.max_sample(at) - AMPLITUDE * 127), `pixel ${at}`).toBeLessThan(6);
          expect(Math.abs(channel.min_sample(at) + AMPLITUDE * 128), `pixel ${at}`).toBeLessThan(6);
        }
      }
      const overview = WaveformData.create(
        new Uint8Array(await bytes(`${data.versionId}/waveform-4096.dat`)).buffer,
      );
      expect(overview.scale).toBe(4096);
      expect(Math.abs(overview.length - json.length / 8)).toBeLessThanOrEqual(1);

      // Loudness of a steady 0.5-amplitude sine: about -9.7 LUFS (mean square 0.125, -0.691 dB
      // offset), no loudness range, ReplayGain -18 - I.
      expect(version.loudnessIntegrated).toBeGreaterThan(-11);
      expect(version.loudnessIntegrated).toBeLessThan(-8.5);
      expect(version.loudnessRange).toBeLessThan(1);
      expect(version.replayGain).toBeCloseTo(-18 - version.loudnessIntegrated!, 2);

      expect(await stopWorkerProcess(worker)).toBe(0);
      worker = undefined;
    },
  );
});
