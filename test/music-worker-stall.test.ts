/**
 * A job whose worker dies twice (SIGKILL, real processes): BullMQ fails it without running the
 * processor (maxStalledCount exceeded), and the worker that does so marks the version `failed`
 * with a reason an admin can act on; the admin retry route then re-runs it to `ready`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredQueues } from '../src/music/jobs/media-steps.js';
import { versionJobId } from '../src/music/jobs/queues.js';
import { STALLED_TOO_OFTEN } from '../workers/music/version-failure.js';
import { openFlowEvents, type FlowEvents } from './helpers/flow-events.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  generateAudio,
  retryFailedJobs,
  tokenWithRole,
  WorkerFleet,
} from './helpers/music-worker.js';

// Workers that will be killed hold 3 s locks (their jobs are soon seen as stalled); the one
// that takes over checks every 2 s but holds 30 s locks, so load cannot make its own job stall.
const DOOMED = { WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '2000' };
const SURVIVOR = { WORKER_LOCK_MS: '30000', WORKER_STALLED_INTERVAL_MS: '2000' };

describe('a job whose worker dies twice', () => {
  let t: MusicTestApp;
  let flow: FlowEvents;
  let dir: string;
  let adminToken: string;
  let fleet: WorkerFleet;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    flow = await openFlowEvents(t.config, ['transcode', 'version-finalize']);
    fleet = new WorkerFleet(t.config);
    dir = await mkdtemp(join(tmpdir(), 'worker-stall-'));
    adminToken = await tokenWithRole(t, 'admin');
  });

  afterAll(async () => {
    await fleet?.stopAll('SIGKILL');
    await flow?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'fails the version with a readable reason, and the admin retry makes it ready',
    { timeout: 400_000 },
    async () => {
      const path = join(dir, 'long.flac');
      await generateAudio(path, { seconds: 90 });
      const sourceKey = `stall/${randomBytes(4).toString('hex')}.flac`;
      await t.connections.stores.originals.put(sourceKey, await readFile(path));
      const data = await createVersionRows(t.connections, sourceKey);
      const transcodeId = versionJobId('transcode', data.versionId);
      const transcodeFailed = flow.outcome('transcode', transcodeId);

      // First death: the job goes back to the queue (stalled once).
      const first = await fleet.launch(DOOMED);
      const firstRun = flow.progressed('transcode', transcodeId);
      await flow.starter.start(data);
      await firstRun;
      expect(await fleet.stop(first, 'SIGKILL')).toBe('SIGKILL');

      // Second death, after the next worker took the job over and was transcoding it.
      const secondRun = flow.progressed('transcode', transcodeId);
      const second = await fleet.launch(DOOMED);
      await secondRun;
      expect(await fleet.stop(second, 'SIGKILL')).toBe('SIGKILL');

      // The third worker finds it stalled a second time: BullMQ fails it without running it.
      const third = await fleet.launch(SURVIVOR);
      // The job's own line: the parent's failure line names the transcode job in its reason too.
      const marked = (line: string): boolean =>
        line.includes('"version failed"') && line.includes(`"jobId":"${transcodeId}"`);
      const markedLine = third.lines.find(marked) ?? (await third.nextLine(marked));
      expect(await transcodeFailed).toBe(`failed: ${STALLED_TOO_OFTEN}`);
      expect(markedLine).toContain('stopped twice');

      const failed = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(failed.status).toBe('failed');
      // A sibling killed twice alongside may have failed first; the reason is the same.
      const queue = failed.error?.split(':')[0] ?? '';
      expect(requiredQueues()).toContain(queue);
      expect(failed.error).toBe(
        `${queue}: the worker running this job stopped twice before finishing it (killed, crashed or out of memory); retry it with POST /api/v1/admin/jobs/retry`,
      );

      // The admin retry route re-runs it; the surviving worker completes the version.
      const finalized = flow.finalized(data.versionId);
      const res = await retryFailedJobs(t, adminToken, { queue: 'transcode', limit: 10 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ queue: 'transcode', retried: 1, job_ids: [transcodeId] });
      await finalized;
      const ready = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(ready.status).toBe('ready');
      expect(ready.error).toBeNull();
      expect((await flow.inspect('transcode', transcodeId))?.state).toBe('completed');
      expect(await fleet.stop(third)).toBe(0);
    },
  );
});
