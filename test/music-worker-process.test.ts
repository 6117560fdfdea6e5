/**
 * The music-worker as a process under signals, with a long transcode running:
 * - SIGKILL mid-transcode, then a new worker: the job completes once, and nothing was ever
 *   published under the version's final keys by the killed attempt;
 * - SIGTERM mid-transcode: exit 0 within the shutdown bound, the job finished or back in the
 *   queue, and a new worker completes the version.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionJobId, type MediaJobData } from '../src/music/jobs/queues.js';
import { parseMediaPlaylist } from '../src/music/ffmpeg-commands/hls-master.js';
import { openFlowEvents, type FlowEvents } from './helpers/flow-events.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { createVersionRows, generateAudio, WorkerFleet } from './helpers/music-worker.js';

// The worker about to be killed holds 3 s locks, so its jobs are soon seen as stalled; the
// workers that take over check often but hold long locks themselves, so a starved machine
// cannot make their own jobs look stalled (a second stall fails a job: maxStalledCount 1).
const FAST_STALL = { WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '2000' };
const TAKE_OVER = { WORKER_LOCK_MS: '30000', WORKER_STALLED_INTERVAL_MS: '2000' };
const SHUTDOWN_MS = 3000;

describe('music-worker process signals', () => {
  let t: MusicTestApp;
  let flow: FlowEvents;
  let dir: string;
  let source: Buffer;
  let fleet: WorkerFleet;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    flow = await openFlowEvents(t.config, ['transcode', 'version-finalize']);
    fleet = new WorkerFleet(t.config, FAST_STALL);
    dir = await mkdtemp(join(tmpdir(), 'worker-signals-'));
    // Long enough that the transcode is still running when the first progress is reported.
    const path = join(dir, 'long.flac');
    await generateAudio(path, { seconds: 90 });
    source = await readFile(path);
  });

  afterAll(async () => {
    await fleet?.stopAll('SIGKILL');
    await flow?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function startVersion(): Promise<MediaJobData> {
    const sourceKey = `long/${Date.now()}-${Math.random().toString(36).slice(2)}.flac`;
    await t.connections.stores.originals.put(sourceKey, source);
    return createVersionRows(t.connections, sourceKey);
  }

  /** Every playlist, init section and segment the master names is in the store. */
  async function expectCompleteHls(versionId: string): Promise<void> {
    const store = t.connections.stores.transcodes;
    const text = async (key: string) =>
      Buffer.concat(await (await store.get(key))!.body.toArray()).toString();
    const master = await text(`${versionId}/master.m3u8`);
    const variants = master.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(variants.length).toBeGreaterThan(0);
    for (const v of variants) {
      const folder = `${versionId}/${v.slice(0, v.lastIndexOf('/'))}`;
      const playlist = parseMediaPlaylist(await text(`${versionId}/${v}`));
      const seconds = playlist.segments.reduce((sum, s) => sum + s.duration, 0);
      expect(Math.abs(seconds - 90)).toBeLessThan(0.1);
      for (const uri of [playlist.initUri!, ...playlist.segments.map((s) => s.uri)])
        expect(await store.head(`${folder}/${uri}`), uri).toBeDefined();
    }
  }

  it(
    'SIGKILL mid-transcode: nothing partial is published, and the restarted worker completes the job once',
    { timeout: 300_000 },
    async () => {
      const data = await startVersion();
      const transcodeId = versionJobId('transcode', data.versionId);
      let completions = 0;
      void flow.completed('transcode', transcodeId).then(() => completions++);
      const first = await fleet.launch();
      const progressed = flow.progressed('transcode', transcodeId);
      const done = flow.finalized(data.versionId);
      await flow.starter.start(data);
      await progressed;
      expect(await fleet.stop(first, 'SIGKILL')).toBe('SIGKILL');
      // The killed attempt was inside ffmpeg: its output never reached the store.
      expect(await t.connections.stores.transcodes.list(`${data.versionId}/`)).toEqual([]);

      await fleet.launch(TAKE_OVER);
      await done;
      expect(completions).toBe(1);
      const job = await flow.inspect('transcode', transcodeId);
      expect(job?.state).toBe('completed');
      expect(job?.attemptsStarted).toBeGreaterThanOrEqual(2); // started again after the kill
      await expectCompleteHls(data.versionId);
      const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(version.status).toBe('ready');
      expect(await fleet.stopAll()).toEqual([0]);
    },
  );

  it(
    'SIGTERM mid-transcode: exits 0 within the bound, the job is finished or back in the queue',
    { timeout: 300_000 },
    async () => {
      const data = await startVersion();
      const transcodeId = versionJobId('transcode', data.versionId);
      // The default 30 s lock, not FAST_STALL: hand-back (moveToWait) needs the job's lock, and a
      // 3 s lock can lapse on a starved machine before the cancelled job is moved, which left it
      // `active` until a stall check. This test is about the hand-back, not stall recovery.
      const worker = await fleet.launch({
        WORKER_SHUTDOWN_MS: String(SHUTDOWN_MS),
        WORKER_LOCK_MS: '30000',
        WORKER_STALLED_INTERVAL_MS: '30000',
      });
      const progressed = flow.progressed('transcode', transcodeId);
      const done = flow.finalized(data.versionId);
      await flow.starter.start(data);
      await progressed;
      const started = Date.now();
      expect(await fleet.stop(worker, 'SIGTERM')).toBe(0);
      // The bound for running jobs plus the connection close (see src/main/music-worker.ts).
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_MS + 10_000);
      const state = (await flow.inspect('transcode', transcodeId))?.state;
      expect(['completed', 'waiting', 'prioritized'], worker.lines.slice(-15).join('\n')).toContain(state);
      expect(worker.lines.some((l) => l.includes('could not hand the job back'))).toBe(false);

      await fleet.launch(TAKE_OVER);
      await done;
      await expectCompleteHls(data.versionId);
    },
  );
});
