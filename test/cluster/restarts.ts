/**
 * Scenario 5: Redis restarts, then PostgreSQL restarts, under load through lb (track pages,
 * comments, eval tool calls). Meanwhile every answer is a success or a 503 with Retry-After
 * (never a 500); the services recover by themselves; a version queued just before each restart
 * still becomes ready (no job lost).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { noiseWav } from '../../load-tests/scenarios/upload-burst.js';
import { examples } from '../../src/eval/routes/info.js';
import { clientFetch } from './clients.js';
import { LB, type Cluster } from './cluster.js';
import { untilReady, uploadTrack, type UploadedTrack } from './music-client.js';
import { PaymentFeed } from './payment-feed.js';
import { record } from './results.js';

interface Answer {
  at: number;
  route: string;
  status: number | 'error';
  retryAfter: string | null;
}

export async function restartsUnderLoad(cluster: Cluster, track: UploadedTrack): Promise<void> {
  const gate = JSON.stringify(examples().examples.gate);
  const routes: [string, () => [string, Parameters<typeof clientFetch>[2]]][] = [
    ['GET /api/v1/tracks/:id', () => [`${LB}/api/v1/tracks/${track.trackId}`, {}]],
    ['GET /api/v1/tracks/:id/comments', () => [`${LB}/api/v1/tracks/${track.trackId}/comments`, {}]],
    [
      'POST /api/gate',
      () => [
        `${LB}/api/gate`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: gate },
      ],
    ],
  ];
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const loop = async (): Promise<void> => {
    while (running) {
      const i = n++;
      const [route, make] = routes[i % routes.length]!;
      const [url, init] = make();
      try {
        const res = await clientFetch(i, url, { ...init, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        answers.push({
          at: performance.now(),
          route,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
        });
      } catch {
        answers.push({ at: performance.now(), route, status: 'error', retryAfter: null });
      }
    }
  };
  const loops = Array.from({ length: 6 }, loop);
  const phases: string[] = [];
  const wav = noiseWav(10, 44_100);
  const queued: string[] = [];

  const outage = async (
    name: string,
    stop: () => Promise<void>,
    start: () => Promise<void>,
  ): Promise<void> => {
    const uploaded = await uploadTrack(cluster, wav, `198.51.100.${50 + queued.length}`);
    queued.push(uploaded.versionId);
    await sleep(1000);
    const down = performance.now();
    await stop();
    await sleep(5000);
    await start();
    const up = performance.now();
    // Recovered: every route has answered 200 after the restart.
    const deadline = up + 120_000;
    while (!routes.every(([r]) => answers.some((a) => a.route === r && a.at > up && a.status === 200))) {
      if (performance.now() > deadline) throw new Error(`${name}: not recovered 120 s after the restart`);
      await sleep(100);
    }
    const recovered = performance.now();
    const during = answers.filter((a) => a.at >= down && a.at <= recovered);
    const count = (s: number | 'error') => during.filter((a) => a.status === s).length;
    const statuses = [...new Set(during.map((a) => a.status))].sort();
    phases.push(
      `| ${name} | ${((up - down) / 1000).toFixed(1)} | ${((recovered - up) / 1000).toFixed(1)} | ${during.length} | ${count(200)} | ${count(503)} | ${during.filter((a) => a.status === 503 && !a.retryAfter).length} | ${statuses.filter((s) => s !== 200 && s !== 503).join(', ') || 'none'} |`,
    );
  };
  const payments = new PaymentFeed();
  payments.start();
  try {
    await sleep(3000);
    await outage(
      'Redis',
      () => cluster.data.stopRedis(),
      () => cluster.data.startRedis(),
    );
    await sleep(3000);
    await outage(
      'PostgreSQL',
      () => cluster.data.stopPostgres(),
      () => cluster.data.startPostgres(),
    );
  } finally {
    running = false;
    await Promise.all([...loops, payments.stop()]);
  }
  await untilReady(cluster, queued);
  const paymentsProcessed = await payments.processed(cluster);
  const redelivered = [...payments.refused].map(([s, c]) => `${c} × ${s}`).join(', ') || 'none';

  const bad = answers.filter(
    (a) => a.status === 'error' || (typeof a.status === 'number' && a.status >= 500 && a.status !== 503),
  );
  const bare503 = answers.filter((a) => a.status === 503 && !a.retryAfter);
  record('5. Redis restarts; PostgreSQL restarts, under load', [
    `6 loops through lb (each request from the next of 150 client addresses): a track page, its comments and an`,
    `eval gate call in turn. Each store stopped (Redis SIGTERM, PostgreSQL fast shutdown), down 5 s, started again;`,
    `a version was queued 1 s before each stop. "During" runs from the stop until every route has answered 200 again.`,
    '',
    '| restart | stopped (s) | recovered after start (s) | answers during | 200 | 503 | 503 without Retry-After | other statuses |',
    '| ------- | ----------: | ------------------------: | -------------: | --: | --: | ----------------------: | -------------- |',
    ...phases,
    '',
    `- answers in the whole run: ${answers.length}; 5xx other than 503, or no answer: ${bad.length}`,
    `- versions queued just before a restart and ready afterwards: ${queued.length} of ${queued.length}`,
    `- payment events delivered through lb (signed, each redelivered every 1 s until a 2xx, as the provider does): ${payments.ids.length}; recorded and processed once afterwards: ${paymentsProcessed}; deliveries refused meanwhile: ${redelivered}`,
  ]);
  // A 500 is a product fault: the services' own account of it, for the failure's message.
  const unhandled = [...cluster.processes.values()].flatMap((p) =>
    p.lines.filter((l) => l.includes('unhandled error')).map((l) => `${p.host}: ${l.slice(0, 1500)}`),
  );
  expect(unhandled, 'errors the services logged as unhandled').toEqual([]);
  expect(paymentsProcessed).toBe(payments.ids.length);
  // Refusals the provider redelivers are fine (503, nginx's 429); a 500 or no answer is not.
  expect(
    [...payments.refused.keys()].filter((s) => s === 'error' || (s.startsWith('5') && s !== '503')),
  ).toEqual([]);
  expect(bad.map((a) => `${a.route} ${a.status}`)).toEqual([]);
  expect(bare503.length).toBe(0);
}
