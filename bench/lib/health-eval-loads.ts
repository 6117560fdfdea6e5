/**
 * For bench/health-under-load.ts: every eval route driven with the worst valid input found
 * for it (bench/lib/worst-inputs.ts, the largest batch, logs, MCP calls), or its example; the
 * submits, ledger pages and static GETs in health-eval-more-loads.ts.
 */
import * as fx from '../../src/eval/harness-logs/fixtures.testing.js';
import { gateCohortBody } from './gate-cohort.js';
import { evalPageLoads, evalSubmitLoads } from './health-eval-more-loads.js';
import { json, type Load } from './health-poll.js';
import { memoryBody, replayBody } from './memory-replay-safepatch-workloads.js';
import { counterexampleWorst, healthWorst, inspectorWorst, leakageWorst } from './worst-inputs.js';

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

export async function evalLoads(base: string): Promise<Load[]> {
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
  loads.push(...evalSubmitLoads(base));
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
  loads.push(...(await evalPageLoads(base)));
  return loads;
}
