/**
 * Compression benchmark: for each tool's near-limit workload (bench/lib/workloads.ts), bytes
 * on the wire and end-to-end time with the request and answer plain (the baseline, same run)
 * vs gzip and br; and, in process, the CPU cost of each compression level on their
 * receipts beside the transfer time it saves on a 100 Mbit/s link, which chose the levels in
 * src/core/response-compression.ts.
 *
 *   npx tsx bench/compression.ts      (writes bench/results/compression.md; needs dist/: make build)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { BROTLI_QUALITY, GZIP_LEVEL } from '../src/core/response-compression.js';
import { executeTool } from '../src/eval/execute.js';
import { startEval } from './lib/server.js';
import { workloads, type Workload } from './lib/workloads.js';

const LINK_BYTES_PER_MS = 100e6 / 8 / 1000;
const REPS = Number(process.env.BENCH_REPS ?? 7);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

type Coding = 'gzip' | 'br';
const compress = (coding: Coding, bytes: Buffer): Buffer =>
  coding === 'gzip'
    ? zlib.gzipSync(bytes, { level: GZIP_LEVEL })
    : zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });

/** Median CPU ms of `fn` (process CPU time, so a preempted run is not charged wall time). */
function cpuMs(fn: () => Buffer): { ms: number; bytes: number } {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REPS; i++) {
    const start = process.cpuUsage();
    bytes = fn().length;
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return { ms: median(times), bytes };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; wire: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        let wire = 0;
        const decoder =
          res.headers['content-encoding'] === 'gzip'
            ? zlib.createGunzip()
            : res.headers['content-encoding'] === 'br'
              ? zlib.createBrotliDecompress()
              : undefined;
        res.on('data', (c: Buffer) => {
          wire += c.length;
          decoder?.write(c);
        });
        res.on('end', () => {
          if (!decoder) return resolve({ status: res.statusCode ?? 0, wire });
          decoder.on('data', () => undefined);
          decoder.on('end', () => resolve({ status: res.statusCode ?? 0, wire }));
          decoder.end();
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Row {
  tool: string;
  mode: string;
  reqBytes: number;
  resBytes: number;
  samples: number[];
  ms: number;
}

async function endToEnd(base: string, all: Workload[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const { tool, body: text } of all) {
    const plain = Buffer.from(text);
    const modes: [string, Coding | undefined][] = [
      ['plain (baseline)', undefined],
      ['gzip both ways', 'gzip'],
      ['br both ways', 'br'],
    ];
    for (let round = 0; round <= REPS; round++) {
      for (const [mode, coding] of modes) {
        const start = performance.now();
        // The client's compression is part of the end-to-end time.
        const body = coding ? compress(coding, plain) : plain;
        const headers: Record<string, string> = coding
          ? { 'content-encoding': coding, 'accept-encoding': coding }
          : { 'content-type': 'application/json' };
        const res = await post(base + tool.path, body, headers);
        const ms = performance.now() - start;
        if (res.status !== 200) throw new Error(`${tool.id} ${mode}: ${res.status}`);
        if (round === 0) continue; // warm-up
        let row = rows.find((r) => r.tool === tool.id && r.mode === mode);
        if (!row) {
          row = { tool: tool.id, mode, reqBytes: body.length, resBytes: res.wire, samples: [], ms: 0 };
          rows.push(row);
        }
        row.samples.push(ms);
      }
    }
  }
  for (const r of rows) r.ms = median(r.samples);
  return rows;
}

function levelTable(receipts: Buffer[]): { lines: string[]; best: Record<Coding, number> } {
  const plainBytes = receipts.reduce((a, b) => a + b.length, 0);
  const lines = [
    `All ${receipts.length} receipts together: ${(plainBytes / 1024).toFixed(0)} KiB plain, ${(plainBytes / LINK_BYTES_PER_MS).toFixed(1)} ms at 100 Mbit/s.`,
    '',
    `| coding, level | CPU ms (all ${receipts.length}) | bytes (all ${receipts.length}) | transfer ms at 100 Mbit/s | CPU + transfer ms |`,
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  const best: Record<Coding, number> = { gzip: 0, br: 0 };
  const bestTotal: Record<Coding, number> = { gzip: Infinity, br: Infinity };
  const levels: [Coding, number[], (b: Buffer, l: number) => Buffer][] = [
    ['gzip', [1, 2, 3, 4, 5, 6, 9], (b, l) => zlib.gzipSync(b, { level: l })],
    [
      'br',
      [0, 1, 2, 3, 4, 5, 6],
      (b, l) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: l } }),
    ],
  ];
  for (const [coding, list, fn] of levels) {
    for (const level of list) {
      let ms = 0;
      let bytes = 0;
      for (const r of receipts) {
        const m = cpuMs(() => fn(r, level));
        ms += m.ms;
        bytes += m.bytes;
      }
      const transfer = bytes / LINK_BYTES_PER_MS;
      if (ms + transfer < bestTotal[coding]) {
        bestTotal[coding] = ms + transfer;
        best[coding] = level;
      }
      lines.push(
        `| ${coding} ${level} | ${ms.toFixed(1)} | ${bytes} | ${transfer.toFixed(1)} | ${(ms + transfer).toFixed(1)} |`,
      );
    }
  }
  return { lines, best };
}

const all = workloads();
const receipts = all.map(({ tool, body }) => {
  const out = executeTool(tool.id, body);
  if (!out.ok) throw new Error(`${tool.id}: ${out.problem.detail}`);
  return { tool: tool.id, bytes: Buffer.from(out.body) };
});
const largest = receipts.reduce((a, b) => (b.bytes.length > a.bytes.length ? b : a));
const levels = levelTable(receipts.map((r) => r.bytes));
const largestCost = (['gzip', 'br'] as const).map((coding) => {
  const m = cpuMs(() => compress(coding, largest.bytes));
  const saved = (largest.bytes.length - m.bytes) / LINK_BYTES_PER_MS;
  return `| ${coding} ${coding === 'gzip' ? GZIP_LEVEL : BROTLI_QUALITY} | ${m.ms.toFixed(1)} | ${m.bytes} | ${saved.toFixed(1)} | ${(saved / m.ms).toFixed(0)}× |`;
});

const server = await startEval();
let rows: Row[];
try {
  rows = await endToEnd(server.url, all);
} finally {
  await server.stop();
}

const e2e = [
  '| tool | mode | request bytes | answer bytes | wire ratio | end-to-end ms (localhost) | time ratio | modelled at 100 Mbit/s ms | ratio |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const r of rows) {
  const base = rows.find((b) => b.tool === r.tool && b.mode.startsWith('plain'))!;
  const linked = (x: Row) => x.ms + (x.reqBytes + x.resBytes) / LINK_BYTES_PER_MS;
  e2e.push(
    `| ${r.tool} | ${r.mode} | ${r.reqBytes} | ${r.resBytes} | ${((r.reqBytes + r.resBytes) / (base.reqBytes + base.resBytes)).toFixed(3)} | ${r.ms.toFixed(1)} | ${(r.ms / base.ms).toFixed(2)} | ${linked(r).toFixed(1)} | ${(linked(r) / linked(base)).toFixed(2)} |`,
  );
}

const md = [
  '## Compression: bodies both ways, levels by measurement',
  '',
  `Near-limit workload per tool (each tool's \`workload()\`, bench/lib/workloads.ts); ${REPS} sequential requests per mode after one warm-up, modes alternating, median; one keep-alive connection; eval service at its defaults (dist). The client compresses the request at the server's levels (gzip ${GZIP_LEVEL}, br ${BROTLI_QUALITY}) inside the timed span. "Modelled at 100 Mbit/s" adds the bytes' transfer time at 100 Mbit/s to the localhost time. The machine (${os.cpus().length} cores) is shared with other work: read the ratios, not the milliseconds.`,
  '',
  ...e2e,
  '',
  `### Levels: CPU to compress vs transfer saved (in process, CPU time, median of ${REPS})`,
  '',
  ...levels.lines,
  '',
  `Lowest CPU + transfer in this run: gzip ${levels.best.gzip}, br ${levels.best.br}. Configured: gzip ${GZIP_LEVEL}, br ${BROTLI_QUALITY}.`,
  '',
  `### The largest receipt (${largest.tool}, ${largest.bytes.length} bytes) at the configured levels`,
  '',
  '| coding, level | CPU ms | bytes | transfer saved at 100 Mbit/s, ms | saved / CPU |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...largestCost,
  '',
].join('\n');
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/compression.md', md);
process.stdout.write(md);
