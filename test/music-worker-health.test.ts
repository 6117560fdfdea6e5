/**
 * Worker GET /health and /metrics with real Redis queues: healthy with 100 failed jobs in
 * total, unhealthy (503) with 101; queue gauges and job counts in the metrics text.
 */
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerTestApp, type WorkerTestApp } from './helpers/worker-app.js';
import { MEDIA_STEPS } from '../src/music/jobs/media-steps.js';
import { QUEUE_NAMES } from '../src/music/jobs/queues.js';

describe('music-worker GET /health and /metrics', () => {
  let worker: WorkerTestApp;
  beforeAll(async () => {
    worker = await createWorkerTestApp({ domain: 'music.test', metricsScrapers: ['127.0.0.1'] });
  });
  afterAll(() => worker?.close());

  /** Fails `n` jobs of a queue for real: a BullMQ worker whose processor refuses them. */
  async function failJobs(name: 'transcode' | 'loudness', n: number): Promise<void> {
    const { bull, prefix } = worker;
    const queue = new Queue(name, { connection: bull, prefix });
    let failed = 0;
    const done = new Promise<void>((resolve) => {
      const worker = new Worker(name, () => Promise.reject(new UnrecoverableError('refused by the test')), {
        connection: bull.duplicate(),
        prefix,
        concurrency: 10,
      });
      worker.on('failed', () => {
        if (++failed === n) void worker.close().then(resolve);
      });
    });
    await queue.addBulk(Array.from({ length: n }, (_, i) => ({ name, data: { i }, opts: { attempts: 1 } })));
    await done;
    await queue.close();
  }

  const health = () => worker.app.inject({ method: 'GET', url: '/health' });

  it('lists every queue with waiting, active and failed', async () => {
    const res = await health();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('healthy');
    expect(Object.keys(body.queues)).toEqual(QUEUE_NAMES);
    for (const name of QUEUE_NAMES) {
      const step = MEDIA_STEPS.find((s) => s.queue === name);
      const described = step ? { step: step.step, required: step.required } : {};
      expect(body.queues[name]).toEqual({ waiting: 0, active: 0, failed: 0, ...described });
    }
  });

  it('is healthy with 100 failed jobs in total and unhealthy (503) with 101', async () => {
    await failJobs('transcode', 60);
    await failJobs('loudness', 40);
    const at100 = await health();
    expect(at100.statusCode).toBe(200);
    expect(at100.json()).toMatchObject({
      status: 'healthy',
      queues: { transcode: { failed: 60 }, loudness: { failed: 40 } },
    });
    await failJobs('loudness', 1);
    const at101 = await health();
    expect(at101.statusCode).toBe(503);
    expect(at101.json()).toMatchObject({ status: 'unhealthy', queues: { loudness: { failed: 41 } } });
  });

  it('exposes queue gauges and job duration histograms', async () => {
    const res = await worker.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('music_queue_jobs{queue="transcode",state="failed"} 60');
    expect(res.body).toContain('music_queue_jobs{queue="waveform",state="waiting"} 0');
    expect(res.body).toContain('# TYPE music_job_duration_seconds histogram');
  });
});
