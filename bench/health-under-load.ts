/**
 * Nothing a client sends stalls a service (issue 32): each service's health route, polled every
 * 50 ms, while one route at a time is driven with the worst valid input found for it (a few
 * requests in flight, back to back), beside the same poll on an idle service. Both services
 * run in child processes (eval: dist/src/main/eval.js; music: this file with --serve), so the
 * poller's latency is the service's. Goal: p99 <= 50 ms under any single route's worst input.
 *
 *   npx tsx bench/health-under-load.ts        (BENCH_SECONDS per route, default 3)
 */
import { loadavg } from 'node:os';
import { evalLoads } from './lib/health-eval-loads.js';
import { IN_FLIGHT, json, measure, POLL_MS, SECONDS, type Load, type Row } from './lib/health-poll.js';
import {
  listenLocal,
  serveUntilParentEnds,
  startServeChild,
  withBenchMusic,
  writeBenchResult,
} from './lib/music-app.js';
import { startEval } from './lib/server.js';

interface MusicServed {
  url: string;
  token: string;
  apiKey: string;
  uploadId: string;
  partSize: number;
}

async function serveMusic(): Promise<void> {
  await withBenchMusic('.tmp/bench-health-under-load', async ({ app }) => {
    const url = await listenLocal(app);
    const signup = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { handle: 'benchuser', email: 'bench@example.org', password: 'a long enough passphrase' },
    });
    const token = signup.json<{ token: string }>().token;
    const auth = { authorization: `Bearer ${token}` };
    const key = await app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: auth,
      payload: { name: 'bench' },
    });
    const size = 500 * 1024 * 1024;
    const init = await app.inject({
      method: 'POST',
      url: '/api/v1/upload/multipart/init',
      headers: auth,
      payload: { filename: 'big.flac', content_type: 'audio/flac', size },
    });
    const { upload_id: uploadId, part_size: partSize } = init.json<{
      upload_id: string;
      part_size: number;
    }>();
    await serveUntilParentEnds({
      url,
      token,
      apiKey: key.json<{ key: string }>().key,
      uploadId,
      partSize,
    } satisfies MusicServed);
  });
}

function musicLoads(s: MusicServed): Load[] {
  const auth = { authorization: `Bearer ${s.token}` };
  const get =
    (path: string, headers: Record<string, string> = {}) =>
    async () => {
      const res = await fetch(s.url + path, { headers });
      await res.arrayBuffer();
      return res.status;
    };
  const part = Buffer.alloc(s.partSize, 1);
  const longQuery = encodeURIComponent('a'.repeat(255));
  return [
    {
      route: 'POST /api/v1/auth/login',
      input: 'a wrong password (a full Argon2id verify)',
      send: json(
        `${s.url}/api/v1/auth/login`,
        JSON.stringify({ login: 'benchuser', password: 'not the passphrase at all' }),
      ),
    },
    { route: 'GET /api/v1/me', input: 'with a token', send: get('/api/v1/me', auth) },
    { route: 'GET /api/v1/trending', input: 'week', send: get('/api/v1/trending?window=week') },
    {
      route: 'GET /rest/search3.view',
      input: 'a 255-character query',
      send: get(`/rest/search3.view?apiKey=${s.apiKey}&f=json&query=${longQuery}`),
    },
    {
      route: 'POST /api/v1/comments',
      input: 'unknown track, 2,000-character body',
      send: json(
        `${s.url}/api/v1/comments`,
        JSON.stringify({ track_id: '6f1c2a3e-0000-4000-8000-000000000001', body: 'x'.repeat(2000) }),
        auth,
      ),
    },
    {
      route: 'PUT /api/v1/upload/multipart/:id/parts/:n',
      input: `a ${(s.partSize / 2 ** 20).toFixed(0)} MiB part`,
      send: async () => {
        const res = await fetch(`${s.url}/api/v1/upload/multipart/${s.uploadId}/parts/1`, {
          method: 'PUT',
          body: part,
          headers: { ...auth, 'content-type': 'application/octet-stream' },
        });
        await res.arrayBuffer();
        return res.status;
      },
    },
  ];
}

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : '-');

async function main(): Promise<void> {
  const rows: Row[] = [];
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const evalChild = await startEval({ EVAL_POOL_SIZE: '2' });
  try {
    const health = `${evalChild.url}/api/health`;
    rows.push({ service: 'eval', ...(await measure(health, undefined)) });
    for (const load of await evalLoads(evalChild.url))
      rows.push({ service: 'eval', ...(await measure(health, load)) });
  } finally {
    await evalChild.stop();
  }
  // The same batch with EVAL_BATCH_CHUNKS=pool (chunks of small lines on the pool threads).
  const pooled = await startEval({ EVAL_POOL_SIZE: '2', EVAL_BATCH_CHUNKS: 'pool' });
  try {
    const batch = (await evalLoads(pooled.url)).find((l) => l.input === '5,000 gate lines')!;
    const row = await measure(`${pooled.url}/api/health`, batch);
    rows.push({ service: 'eval', ...row, input: `${row.input}, EVAL_BATCH_CHUNKS=pool` });
  } finally {
    await pooled.stop();
  }
  const music = await startServeChild<MusicServed>(import.meta.filename);
  try {
    const health = `${music.served.url}/api/v1/health`;
    rows.push({ service: 'music', ...(await measure(health, undefined)) });
    for (const load of musicLoads(music.served))
      rows.push({ service: 'music', ...(await measure(health, load)) });
  } finally {
    await music.stop();
  }
  const loadAfter = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const table = [
    '| service | route driven | worst valid input | requests (status×n) | health p50 ms | p99 ms | max ms |',
    '| --- | --- | --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.service} | ${r.route} | ${r.input} | ${r.requests} (${r.statuses}) | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} |`,
    ),
  ];
  const over = rows.filter((r) => r.p99 > 50).map((r) => `${r.service} ${r.route} (${r.input})`);
  await writeBenchResult(
    'health-under-load',
    [
      '## Health latency while one route is driven with its worst input (issue 32)',
      '',
      `The health route (eval \`/api/health\`, music \`/api/v1/health\`) polled every ${POLL_MS} ms for ${SECONDS} s per row, while ${IN_FLIGHT} requests of the row's route are in flight back to back; the first row of each service is the idle baseline. Services in child processes (eval with a 2-thread pool). Goal: p99 <= 50 ms. Load average (1, 5, 15 min) before: ${loadBefore}; after: ${loadAfter} (2 cores shared with other work).`,
      '',
      ...table,
      '',
      over.length
        ? `Over the goal in this run: ${over.join('; ')}.`
        : 'Every row within the goal in this run.',
      '',
    ].join('\n'),
  );
}

if (process.argv.includes('--serve')) await serveMusic();
else await main();
