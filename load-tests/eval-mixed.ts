/**
 * Load scenario against a running eval service: every catalog tool's example in rotation,
 * for a bounded time, then a report of throughput, latency and any non-2xx answers.
 * Only loopback or a host you run: `EVAL_URL=http://127.0.0.1:8080 npx tsx load-tests/eval-mixed.ts`.
 * Exit 1 when any request failed or answered non-2xx (start the service with RATE_LIMITS=off).
 */
import autocannon from 'autocannon';

const base = process.env.EVAL_URL ?? 'http://127.0.0.1:8080';
const seconds = Number(process.env.LOAD_SECONDS ?? 30);
const connections = Number(process.env.LOAD_CONNECTIONS ?? 16);
const host = new URL(base).hostname;
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) && process.env.LOAD_ALLOW_REMOTE !== '1') {
  process.stderr.write(
    `refusing to load ${host}: only loopback unless LOAD_ALLOW_REMOTE=1 for a host you run\n`,
  );
  process.exit(2);
}

const catalog = (await (await fetch(`${base}/api/catalog`)).json()) as {
  tools: { id: string; endpoint: string }[];
};
const { examples } = (await (await fetch(`${base}/api/examples`)).json()) as {
  examples: Record<string, unknown>;
};
const requests = catalog.tools.map((t) => ({
  method: 'POST' as const,
  path: t.endpoint,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(examples[t.id]),
}));

const result = await autocannon({ url: base, connections, duration: seconds, requests });
process.stdout.write(
  `${catalog.tools.length} tools in rotation, ${connections} connections, ${seconds} s\n` +
    `requests/s avg ${result.requests.average.toFixed(1)}, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms\n` +
    `2xx ${result['2xx']}, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}\n`,
);
process.exit(result.non2xx > 0 || result.errors > 0 ? 1 : 0);
