/**
 * The media pipeline end to end: a real music-worker process, real Redis, PostgreSQL and
 * ffmpeg. A generated 20 s stereo sine with silence and a cover goes through the whole flow,
 * and every output is checked through the running API (signed HLS, waveforms, images).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WaveformData, { type JsonWaveformData } from 'waveform-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUrl } from '../src/music/services/secure-link.js';
import type { FlowEvents } from './helpers/flow-events.js';
import { TEST_SECURE_LINK_SECRET, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  generateAudio,
  run,
  startPipelineApp,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

/** ffmpeg's own ebur128 summary, parsed here independently of src/music/ffmpeg-commands/loudness.ts. */
async function referenceIntegratedLoudness(path: string): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-nostats',
    '-i',
    path,
    '-af',
    'ebur128=peak=true',
    '-f',
    'null',
    '-',
  ]);
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  return Number(/I:\s+(-?[0-9.]+) LUFS/.exec(summary)![1]);
}

/** Seconds of audio ffmpeg decodes from a URL (counted in samples, not read from metadata). */
async function decodedSeconds(url: string): Promise<number> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', url, '-map', '0:a:0', '-ac', '1', '-ar', '44100', '-f', 's16le', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout.length / 2 / 44100;
}

describe('media pipeline: one flow per version', () => {
  let t: MusicTestApp;
  let base: string;
  let worker: WorkerProcess;
  let flow: FlowEvents;
  let dir: string;

  beforeAll(async () => {
    ({ t, base, flow, worker } = await startPipelineApp());
    dir = await mkdtemp(join(tmpdir(), 'pipeline-'));
  });

  afterAll(async () => {
    if (worker) expect(await stopWorkerProcess(worker)).toBe(0);
    await flow?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function runFlow(sourcePath: string) {
    const sourceKey = `originals-test/${Date.now()}-${Math.random().toString(36).slice(2)}.flac`;
    await t.connections.stores.originals.put(sourceKey, await readFile(sourcePath));
    const data = await createVersionRows(t.connections, sourceKey);
    const done = flow.finalized(data.versionId);
    await flow.starter.start(data);
    await done;
    return data;
  }

  // A whole flow plus decoding the HLS through the API: minutes on a loaded machine.
  it(
    'turns a 20 s sine with silence and a cover into HLS, waveform, artwork and loudness',
    { timeout: 300_000 },
    async () => {
      const source = join(dir, 'sine.flac');
      await generateAudio(source, { seconds: 20, sineSeconds: 15, cover: true });
      const { versionId, trackId } = await runFlow(source);

      const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({ where: { id: versionId } });
      expect(version.status).toBe('ready');
      expect(version.error).toBeNull();
      expect(version.durationMs).toBe(20_000);
      const track = await t.connections.prisma.track.findUniqueOrThrow({ where: { id: trackId } });
      expect(track.currentVersionId).toBe(versionId);

      // HLS: the signed master, then every variant and segment by the URLs the playlists give.
      const expires = Math.floor(Date.now() / 1000) + 600;
      const masterUrl =
        base + signedUrl(`/media/hls/${version.hlsKey}`, TEST_SECURE_LINK_SECRET, 600, expires - 600);
      const master = await fetch(masterUrl);
      expect(master.status).toBe(200);
      const masterText = await master.text();
      const infs = masterText.split('\n').filter((l) => l.startsWith('#EXT-X-STREAM-INF:'));
      expect(infs).toHaveLength(3); // FLAC source: 64k, 128k and 256k
      for (const inf of infs) {
        expect(inf).toMatch(/BANDWIDTH=\d+/);
        expect(inf).toMatch(/AVERAGE-BANDWIDTH=\d+/);
        expect(inf).toContain('CODECS="mp4a.40.2"');
      }
      const variantUris = masterText.split('\n').filter((l) => l && !l.startsWith('#'));
      expect(variantUris).toHaveLength(3);
      for (const uri of variantUris) {
        const variantUrl = new URL(uri, masterUrl).toString();
        const variant = await fetch(variantUrl);
        expect(variant.status).toBe(200);
        const text = await variant.text();
        expect(text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
        const durations = [...text.matchAll(/#EXTINF:([0-9.]+)/g)].map((m) => Number(m[1]));
        for (const d of durations.slice(0, -1)) {
          expect(d).toBeGreaterThanOrEqual(4);
          expect(d).toBeLessThanOrEqual(6.1);
        }
        const refs = [
          ...[...text.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!),
          ...text.split('\n').filter((l) => l && !l.startsWith('#')),
        ];
        expect(refs.length).toBe(durations.length + 1);
        for (const ref of refs) {
          const segment = await fetch(new URL(ref, variantUrl));
          expect(segment.status, ref).toBe(200);
          expect((await segment.arrayBuffer()).byteLength).toBeGreaterThan(0);
        }
        // ffmpeg follows the same signed URLs through the running API.
        expect(Math.abs((await decodedSeconds(variantUrl)) - 20)).toBeLessThan(0.1);
      }
      expect(Math.abs((await decodedSeconds(masterUrl)) - 20)).toBeLessThan(0.1);
      const progressive = await t.connections.stores.transcodes.head(version.progressiveKey!);
      expect(progressive?.size).toBeGreaterThan(0);

      // Waveform: BBC's reader parses both formats; length and peak as expected.
      const json = (await (
        await fetch(`${base}/waveforms/${version.waveformKey}`)
      ).json()) as JsonWaveformData;
      const dat = await (await fetch(`${base}/waveforms/${versionId}/waveform.dat`)).arrayBuffer();
      for (const wf of [WaveformData.create(json), WaveformData.create(dat)]) {
        expect(wf.sample_rate).toBe(44100);
        expect(wf.scale).toBe(512);
        expect(wf.length).toBe(Math.ceil((20 * 44100) / 512));
        const channel = wf.channel(0);
        const peak = Math.max(...channel.max_array());
        expect(Math.abs(peak - 0.1 * 127)).toBeLessThanOrEqual(1.5);
        expect(channel.max_sample(wf.length - 1)).toBe(0); // the silent tail
        expect(channel.min_sample(wf.length - 1)).toBe(0);
      }
      const overview = WaveformData.create(
        await (await fetch(`${base}/waveforms/${versionId}/waveform-4096.dat`)).arrayBuffer(),
      );
      expect(overview.scale).toBe(4096);
      expect(overview.length).toBe(Math.ceil((20 * 44100) / 4096));

      // Artwork: square JPEGs of 600 and 300 px, served from the images store.
      for (const size of [600, 300]) {
        const key = version.artworkKey!.replace('600', String(size));
        const res = await fetch(`${base}/images/${key}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        const path = join(dir, `cover-${size}.jpg`);
        await writeFile(path, Buffer.from(await res.arrayBuffer()));
        const { stdout } = await run('ffprobe', [
          '-v',
          'error',
          '-show_entries',
          'stream=width,height',
          '-of',
          'csv=p=0',
          path,
        ]);
        expect(stdout.trim()).toBe(`${size},${size}`);
      }

      // Loudness: ffmpeg's own ebur128 on the original, within 0.1 LU; gain = -18 - I.
      const reference = await referenceIntegratedLoudness(source);
      expect(Math.abs(version.loudnessIntegrated! - reference)).toBeLessThanOrEqual(0.1);
      expect(version.replayGain).toBeCloseTo(-18 - version.loudnessIntegrated!, 2);
      expect(version.truePeak!).toBeLessThan(-19);
      expect(version.truePeak!).toBeGreaterThan(-21);
    },
  );

  it('a mono source without a cover stays mono and has no artwork', { timeout: 300_000 }, async () => {
    const source = join(dir, 'mono.flac');
    await generateAudio(source, { seconds: 3, channels: 1 });
    const { versionId } = await runFlow(source);
    const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({ where: { id: versionId } });
    expect(version.status).toBe('ready');
    expect(version.artworkKey).toBeNull();
    const { stdout } = await run('ffprobe', [
      ...['-v', 'error', '-show_entries', 'stream=channels', '-of', 'csv=p=0'],
      join(t.dataDir, 'objects', 'transcodes', versionId, 'progressive.m4a'),
    ]);
    expect(stdout.trim()).toBe('1');
  });
});
