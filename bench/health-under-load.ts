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
import * as fx from '../src/eval/harness-logs/fixtures.testing.js';
import {
  listenLocal,
  serveUntilParentEnds,
  startServeChild,
  withBenchMusic,
  writeBenchResult,
} from './lib/music-app.js';
import { gateCohortBody } from './lib/gate-cohort.js';
import { memoryBody, replayBody } from './lib/memory-replay-safepatch-workloads.js';
import { startEval } from './lib/server.js';
import { counterexampleWorst, healthWorst, inspectorWorst, leakageWorst } from './lib/worst-inputs.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 2);
const POLL_MS = 50;

interface Load {
  route: string;
  input: string;
  send: () => Promise<number>;
}

interface Row {
  service: string;
  route: string;
  input: string;
  requests: number;
  statuses: string;
  p50: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;

async function measure(health: string, load: Load | undefined): Promise<Omit<Row, 'service'>> {
  const until = Date.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let requests = 0;
  const poll = (async () => {
    while (Date.now() < until) {
      const t0 = performance.now();
      const res = await fetch(health);
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      latencies.push(ms);
      if (ms < POLL_MS) await new Promise((r) => setTimeout(r, POLL_MS - ms));
    }
  })();
  const drivers = load
    ? Array.from({ length: IN_FLIGHT }, async () => {
        while (Date.now() < until) {
          const status = await load.send().catch(() => 0);
          requests++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      })
    : [];
  await Promise.all([poll, ...drivers]);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    route: load?.route ?? '(idle baseline)',
    input: load?.input ?? 'no other traffic',
    requests,
    statuses: [...statuses].map(([s, n]) => `${s}×${n}`).join(' ') || '-',
    p50: pct(sorted, 0.5),
    p99: pct(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
  };
}

const json =
  (url: string, body: string, headers: Record<string, string> = {}, method = 'POST') =>
  async () => {
    const res = await fetch(url, {
      method,
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    await res.arrayBuffer();
    return res.status;
  };

function multipart(parts: { name: string; value: Uint8Array | string; filename?: string }[]) {
  const boundary = `----bench${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}\r\n\r\n`));
    chunks.push(Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** Near-limit bodies per tool id (bench/lib); a tool not listed is driven with its example. */
const WORST: Record<string, { input: string; body: () => string }> = {
  counterexample: {
    input: 'a claim that holds, 5 × n=12, 6 restarts × 1,500 steps',
    body: counterexampleWorst,
  },
  health: { input: '5,000 history rows (1,250 items × 4 systems)', body: healthWorst },
  leakage: { input: '5,000 exam rows × 5,000 exposure rows', body: leakageWorst },
  inspector: { input: '5,000 exam × 5,000 exposure rows, 5,000 outcomes a side', body: inspectorWorst },
  memory: { input: '1,000 memories', body: memoryBody },
  replay: { input: '5,000 events', body: replayBody },
};

async function evalLoads(base: string): Promise<Load[]> {
  const examples = (
    (await (await fetch(`${base}/api/examples`)).json()) as { examples: Record<string, unknown> }
  ).examples;
  const catalog = (
    (await (await fetch(`${base}/api/catalog`)).json()) as { tools: { id: string; endpoint: string }[] }
  ).tools;
  const loads: Load[] = [];
  const quadratic = JSON.stringify({
    document: `# T\n\n${'Q'.repeat(199_000)}X`,
    operations: [{ target_heading: 'T', find: 'X', replace: 'Y' }],
  });
  for (const t of catalog) {
    if (t.id === 'safepatch') {
      loads.push({
        route: `POST ${t.endpoint}`,
        input: 'the issue\'s 199 KB "Q…QX" document',
        send: json(base + t.endpoint, quadratic),
      });
    } else if (t.id === 'gate') {
      const body = gateCohortBody(5000);
      loads.push({
        route: `POST ${t.endpoint}`,
        input: `${(body.length / 1e3).toFixed(0)} KB, 5,000 items (the most it takes)`,
        send: json(base + t.endpoint, body),
      });
    } else {
      const worst = WORST[t.id];
      loads.push({
        route: `POST ${t.endpoint}`,
        input: worst?.input ?? 'its /api/examples payload',
        send: json(base + t.endpoint, worst?.body() ?? JSON.stringify(examples[t.id])),
      });
    }
  }
  const batch = Array.from({ length: 5000 }, (_, i) =>
    JSON.stringify({ id: `l${i}`, tool: 'gate', request: examples.gate }),
  ).join('\n');
  loads.push({
    route: 'POST /api/batch',
    input: '5,000 gate lines',
    send: json(`${base}/api/batch`, batch, { 'content-type': 'application/x-ndjson' }),
  });
  // Accepted as a batch (200), every line a problem line: the problem path's own cost.
  const noIds = Array.from({ length: 5000 }, () =>
    JSON.stringify({ tool: 'gate', request: examples.gate }),
  ).join('\n');
  loads.push({
    route: 'POST /api/batch',
    input: '5,000 gate lines without "id" (every line a problem line)',
    send: json(`${base}/api/batch`, noIds, { 'content-type': 'application/x-ndjson' }),
  });
  const outcomes: fx.Outcome[] = Array.from({ length: 50_000 }, (_, i) => ({
    id: `i${i}`,
    runs: Array.from({ length: 25 }, (_, r) => (i + r) % 3 !== 0),
  }));
  const baseLog = fx.lmEvalJsonl(outcomes);
  const candLog = fx.lmEvalJsonl(
    outcomes.map((o, i) => ({ ...o, runs: o.runs.map((x, r) => (i % 7 === r ? !x : x)) })),
  );
  const form = multipart([
    { name: 'baseline', value: baseLog, filename: 'base.jsonl' },
    { name: 'candidate', value: candLog, filename: 'cand.jsonl' },
  ]);
  loads.push({
    route: 'POST /api/gate/logs',
    input: `2 × ${(baseLog.byteLength / 1e6).toFixed(0)} MB lm-eval JSONL (50,000 items × 25 runs, the issue's)`,
    send: async () => {
      const res = await fetch(`${base}/api/gate/logs`, {
        method: 'POST',
        body: form.body,
        headers: { 'content-type': form.type },
      });
      await res.arrayBuffer();
      return res.status;
    },
  });
  const mcp = { accept: 'application/json' };
  loads.push({
    route: 'POST /mcp',
    input: 'tools/call safepatch with the 199 KB document',
    send: json(
      `${base}/mcp`,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'safepatch', arguments: JSON.parse(quadratic) },
      }),
      mcp,
    ),
  });
  loads.push({
    route: 'POST /mcp',
    input: 'tools/call with 5,000-deep arguments',
    send: json(
      `${base}/mcp`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gate","arguments":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}}`,
      mcp,
    ),
  });
  loads.push({
    route: 'POST /api/report-card/start',
    input: 'a fresh session',
    send: json(`${base}/api/report-card/start`, '{}'),
  });
  loads.push({
    route: 'POST /api/open-bench/start',
    input: 'a fresh session',
    send: json(`${base}/api/open-bench/start`, '{}'),
  });
  for (const path of ['/api/catalog', '/api/examples', '/openapi.json', '/api/stats']) {
    loads.push({
      route: `GET ${path}`,
      input: 'as is',
      send: async () => {
        const res = await fetch(base + path);
        await res.arrayBuffer();
        return res.status;
      },
    });
  }
  return loads;
}

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
