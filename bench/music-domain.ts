/**
 * Music domain benchmark (issue 12), every figure a ratio to a baseline measured in the same run:
 *
 * 1. Upload: a WAV of BENCH_UPLOAD_MB (default 400) MB through the API parts route (init, PUT
 *    every part in turn, complete: which also concatenates, hashes and ffprobes the file) beside
 *    the same bytes written to the same filesystem store directly (the store's own multipart
 *    calls, and one plain put), alternating; and the parts PUT to a bare node:http server over the
 *    same store (no framework, auth or database: what the HTTP hop alone costs). The API runs in a child process; its peak RSS
 *    during the upload is read from /proc/<pid>/status (VmHWM, reset through clear_refs just
 *    before) and sampled (VmRSS) as a fallback.
 * 2. Reads: GET /api/v1/tracks/:id (a track with a ready version: signed URLs, loudness) and
 *    GET /api/v1/trending (after a rollup of plays) under autocannon beside GET /api/v1/health
 *    of the same app: req/s and p99.
 *
 * Needs PostgreSQL, Redis and ffmpeg; makes and drops its own database. Writes
 * bench/results/music-domain.md. Decisions: docs/music-domain.md, "Benchmark".
 *
 *   npx tsx bench/music-domain.ts            (BENCH_UPLOAD_MB=50 BENCH_DURATION=3 for a quick check)
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemObjectStore } from '../src/music/repositories/object-store/fs-store.js';
import type { ObjectStore } from '../src/music/repositories/object-store/index.js';
import { UPLOAD_LIMITS } from '../src/music/services/upload-service.js';
import {
  listenLocal,
  serveUntilParentEnds,
  startServeChild,
  withBenchMusic,
  writeBenchResult,
} from './lib/music-app.js';
import { makeWav, seedPlays, seedReadyTracks } from './lib/music-seed.js';
import {
  cpuMsSince,
  flushDirtyPages,
  mbps,
  mean,
  measureReads,
  median,
  peakRss,
  readsMarkdown,
  type Load,
} from './lib/music-domain-measure.js';
import { processCpuMs } from './lib/process-cpu.js';

const MiB = 1024 * 1024;
const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_MB ?? 400) * 1e6;
// The API's default part size (what a client gets without choosing); BENCH_PART_MIB for another.
const CHOSEN_PART_SIZE = process.env.BENCH_PART_MIB ? Number(process.env.BENCH_PART_MIB) * MiB : undefined;
const PART_SIZE = CHOSEN_PART_SIZE ?? UPLOAD_LIMITS.defaultPartSize;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
// Parts in flight at once on both sides: 3 as the web player sends them (web/player/src/uploader.ts).
const PARTS_IN_FLIGHT = Number(process.env.BENCH_PARTS_IN_FLIGHT ?? 3);
const LOAD = { connections: 50, pipelining: 1, duration: Number(process.env.BENCH_DURATION ?? 8) };
const TRACKS = 30;
const UPLOAD_TARGET = 0.8;
// BENCH_ONLY=upload: the upload rounds alone (no seeded tracks, no autocannon reads).
const UPLOAD_ONLY = process.env.BENCH_ONLY === 'upload';

interface Served {
  url: string;
  pid: number;
  token: string;
  trackId: string;
  dataDir: string;
}

// ---------------------------------------------------------------- child: the API process

async function serve(): Promise<void> {
  await withBenchMusic(process.env.BENCH_DATA_DIR ?? '', async ({ config, connections, app }) => {
    const signup = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { handle: 'bench_owner', email: 'owner@example.org', password: 'a long enough passphrase' },
    });
    if (signup.statusCode !== 201) throw new Error(`signup: ${signup.statusCode} ${signup.body}`);
    const { token, user } = signup.json<{ token: string; user: { id: string } }>();
    const trackIds = UPLOAD_ONLY ? [] : await seedReadyTracks(connections, user.id, TRACKS);
    if (!UPLOAD_ONLY) await seedPlays(app, connections, config, trackIds);
    const served: Served = {
      url: await listenLocal(app),
      pid: process.pid,
      token,
      trackId: trackIds[0] ?? '',
      dataDir: config.dataDir,
    };
    await serveUntilParentEnds(served);
  });
}

/** The HTTP floor: node:http over the same store's uploadPart, with no framework, auth or database. */
async function serveBare(): Promise<void> {
  const store = new FilesystemObjectStore(join(process.env.BENCH_DATA_DIR ?? '', 'objects'), 'originals');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bare');
    const put = store.uploadPart(
      url.searchParams.get('key') ?? '',
      url.searchParams.get('upload') ?? '',
      Number(url.searchParams.get('n')),
      req,
      Number(req.headers['content-length']),
    );
    put.then(
      (etag) => res.end(JSON.stringify({ etag })),
      (err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await serveUntilParentEnds({ url: `http://127.0.0.1:${port}`, pid: process.pid });
  server.close();
}

// ---------------------------------------------------------------- parent: load and measure

/** Runs `task` over `items` with PARTS_IN_FLIGHT at once, taking the next as one ends. */
async function inFlight<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
  };
  await Promise.all(Array.from({ length: Math.max(1, PARTS_IN_FLIGHT) }, worker));
}

function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | NodeJS.ReadableStream | undefined,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body === undefined || typeof body === 'string') req.end(body);
    else body.pipe(req);
  });
}

interface UploadTimes {
  partsMs: number;
  totalMs: number;
  /** CPU of the writer: the API process, or the bench process for direct writes. */
  cpuMs?: number;
  /** CPU the bench process spent sending to the API. */
  clientCpuMs?: number;
  /** CPU of the writer during the parts phase alone. */
  partsCpuMs?: number;
}

async function uploadThroughApi(served: Served, file: string, size: number): Promise<UploadTimes> {
  const auth = { authorization: `Bearer ${served.token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const start = performance.now();
  const init = await send(
    `${served.url}/api/v1/upload/multipart/init`,
    'POST',
    json,
    JSON.stringify({ filename: 'upload.wav', content_type: 'audio/wav', size, part_size: CHOSEN_PART_SIZE }),
  );
  if (init.status !== 201) throw new Error(`init: ${init.status} ${init.text}`);
  const answer = JSON.parse(init.text) as {
    upload_id: string;
    asset_id: string;
    part_size: number;
    parts: { part_number: number; url: string }[];
  };
  if (answer.part_size !== PART_SIZE) throw new Error(`init gave parts of ${answer.part_size} bytes`);
  const parts: { part_number: number; etag: string }[] = [];
  const partsStart = performance.now();
  const partsCpu = processCpuMs(served.pid);
  await inFlight(answer.parts, async (part) => {
    const from = (part.part_number - 1) * PART_SIZE;
    const to = Math.min(size, from + PART_SIZE) - 1;
    const res = await send(
      served.url + part.url,
      'PUT',
      { ...auth, 'content-type': 'application/octet-stream', 'content-length': String(to - from + 1) },
      createReadStream(file, { start: from, end: to, highWaterMark: MiB }),
    );
    if (res.status !== 200) throw new Error(`part ${part.part_number}: ${res.status} ${res.text}`);
    parts.push({ part_number: part.part_number, etag: (JSON.parse(res.text) as { etag: string }).etag });
  });
  parts.sort((a, b) => a.part_number - b.part_number);
  const partsMs = performance.now() - partsStart;
  const partsCpuMs = processCpuMs(served.pid) - partsCpu;
  const done = await send(
    `${served.url}/api/v1/upload/multipart/complete`,
    'POST',
    json,
    JSON.stringify({ upload_id: answer.upload_id, asset_id: answer.asset_id, parts }),
  );
  if (done.status !== 200) throw new Error(`complete: ${done.status} ${done.text}`);
  return { partsMs, partsCpuMs, totalMs: performance.now() - start };
}

/** The same bytes, same part size, into the same store by its own multipart calls. */
async function uploadDirect(store: ObjectStore, file: string, size: number): Promise<UploadTimes> {
  const start = performance.now();
  const key = `direct/${randomUUID()}`;
  const id = await store.createMultipartUpload(key, 'audio/wav');
  const parts: { partNumber: number; etag: string }[] = [];
  const partsStart = performance.now();
  const partsCpu = process.cpuUsage();
  const numbers = Array.from({ length: Math.ceil(size / PART_SIZE) }, (_, i) => i + 1);
  await inFlight(numbers, async (n) => {
    const from = (n - 1) * PART_SIZE;
    const to = Math.min(size, from + PART_SIZE) - 1;
    const etag = await store.uploadPart(
      key,
      id,
      n,
      createReadStream(file, { start: from, end: to, highWaterMark: MiB }),
      to - from + 1,
    );
    parts.push({ partNumber: n, etag });
  });
  parts.sort((a, b) => a.partNumber - b.partNumber);
  const partsMs = performance.now() - partsStart;
  const partsCpuMs = cpuMsSince(partsCpu);
  await store.completeMultipartUpload(key, id, parts);
  const totalMs = performance.now() - start;
  await store.delete(key);
  return { partsMs, partsCpuMs, totalMs };
}

/** The parts of a store multipart upload sent to the bare server; complete and delete as uploadDirect does. */
async function uploadBare(
  bareUrl: string,
  store: ObjectStore,
  file: string,
  size: number,
): Promise<{ partsMs: number; totalMs: number }> {
  const start = performance.now();
  const key = `bare/${randomUUID()}`;
  const id = await store.createMultipartUpload(key, 'audio/wav');
  const parts: { partNumber: number; etag: string }[] = [];
  const numbers = Array.from({ length: Math.ceil(size / PART_SIZE) }, (_, i) => i + 1);
  const partsStart = performance.now();
  await inFlight(numbers, async (n) => {
    const from = (n - 1) * PART_SIZE;
    const to = Math.min(size, from + PART_SIZE) - 1;
    const query = new URLSearchParams({ key, upload: id, n: String(n) });
    const res = await send(
      `${bareUrl}/?${query.toString()}`,
      'PUT',
      { 'content-length': String(to - from + 1) },
      createReadStream(file, { start: from, end: to, highWaterMark: MiB }),
    );
    if (res.status !== 200) throw new Error(`bare part ${n}: ${res.status} ${res.text}`);
    parts.push({ partNumber: n, etag: (JSON.parse(res.text) as { etag: string }).etag });
  });
  const partsMs = performance.now() - partsStart;
  parts.sort((a, b) => a.partNumber - b.partNumber);
  await store.completeMultipartUpload(key, id, parts);
  const totalMs = performance.now() - start;
  await store.delete(key);
  return { partsMs, totalMs };
}

async function putDirect(store: ObjectStore, file: string): Promise<number> {
  const key = `direct/${randomUUID()}`;
  const start = performance.now();
  await store.put(key, createReadStream(file, { highWaterMark: MiB }));
  const ms = performance.now() - start;
  await store.delete(key);
  return ms;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'music-domain-bench-'));
  const dataDir = join(work, 'data');
  await mkdir(dataDir);
  const file = await makeWav(work, UPLOAD_BYTES);
  const size = (await stat(file)).size;
  const child = await startServeChild<Served>(import.meta.filename, { BENCH_DATA_DIR: dataDir });
  const bareChild = await startServeChild<{ url: string }>(import.meta.filename, {
    BENCH_DATA_DIR: dataDir,
    BENCH_SERVE: 'bare',
  });
  const served = child.served;
  const store: ObjectStore = new FilesystemObjectStore(join(dataDir, 'objects'), 'originals');
  const api: UploadTimes[] = [];
  const direct: UploadTimes[] = [];
  const put: number[] = [];
  const bare: { partsMs: number; totalMs: number }[] = [];
  const loads: number[] = [];
  let rss = { before: 0, peak: 0 };
  let reads: { health: Load; track: Load; trending: Load } | undefined;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(loadavg()[0] ?? 0);
      await flushDirtyPages();
      const apiCpu = processCpuMs(served.pid);
      const clientCpu = process.cpuUsage();
      const measured = await peakRss(served.pid, () => uploadThroughApi(served, file, size));
      api.push({
        ...measured.result,
        cpuMs: processCpuMs(served.pid) - apiCpu,
        clientCpuMs: cpuMsSince(clientCpu),
      });
      if (measured.peak > rss.peak) rss = { before: measured.before, peak: measured.peak };
      loads.push(loadavg()[0] ?? 0);
      await flushDirtyPages();
      const directCpu = process.cpuUsage();
      const times = await uploadDirect(store, file, size);
      direct.push({ ...times, cpuMs: cpuMsSince(directCpu) });
      await flushDirtyPages();
      put.push(await putDirect(store, file));
      await flushDirtyPages();
      bare.push(await uploadBare(bareChild.served.url, store, file, size));
      // The API's completed originals stay in the store: remove them so the disk does not fill.
      await rm(join(dataDir, 'objects', 'originals'), { recursive: true, force: true });
      await store.ensure();
    }
    if (!UPLOAD_ONLY) reads = await measureReads(served, { ...LOAD, rounds: ROUNDS });
  } finally {
    await child.stop();
    await bareChild.stop();
    await rm(work, { recursive: true, force: true });
  }

  const apiTotal = mean(api.map((t) => t.totalMs));
  const apiParts = mean(api.map((t) => t.partsMs));
  const directTotal = mean(direct.map((t) => t.totalMs));
  const directParts = mean(direct.map((t) => t.partsMs));
  const putMs = mean(put);
  const ratio = directTotal / apiTotal;
  const bareTotal = mean(bare.map((b) => b.totalMs));
  const MB = (b: number): string => (b / MiB).toFixed(0);
  const perGb = (ms: number): string => (ms / 1000 / (size / 1e9)).toFixed(2);
  const row = (name: string, ms: number, base: number): string =>
    `| ${name} | ${(ms / 1000).toFixed(2)} | ${mbps(size, ms).toFixed(0)} | ${(base / ms).toFixed(2)} |`;
  const perRound = api.map(
    (a, i) =>
      `| ${i + 1} | ${(loads[2 * i] ?? 0).toFixed(1)} / ${(loads[2 * i + 1] ?? 0).toFixed(1)} | ${((direct[i]?.totalMs ?? 0) / a.totalMs).toFixed(2)} | ${((direct[i]?.partsMs ?? 0) / a.partsMs).toFixed(2)} | ${perGb(a.cpuMs ?? 0)} (${perGb(a.partsCpuMs ?? 0)}) | ${perGb(a.clientCpuMs ?? 0)} | ${perGb(direct[i]?.cpuMs ?? 0)} (${perGb(direct[i]?.partsCpuMs ?? 0)}) |`,
  );
  const markdown = [
    '## music-domain',
    '',
    `Upload of a ${(size / 1e6).toFixed(0)} MB WAV in ${Math.ceil(size / PART_SIZE)} parts of ${PART_SIZE / MiB} MiB, ${PARTS_IN_FLIGHT} in flight at once on both sides (BENCH_PARTS_IN_FLIGHT; the web player sends 3); ` +
      `${ROUNDS} alternating rounds (mean), each path starting after a sync (no dirty pages left by the one before). The API runs in its own process; the direct writes go from the bench process into the same filesystem store.`,
    '',
    '| upload path | seconds | MB/s | direct multipart / this |',
    '| --- | ---: | ---: | ---: |',
    row('store multipart directly (baseline): parts + complete', directTotal, directTotal),
    row('API: init + PUT parts + complete (sha256, ffprobe)', apiTotal, directTotal),
    row('store multipart directly, parts only', directParts, directParts),
    row('API, PUT parts only', apiParts, directParts),
    row(
      'bare node:http server over the same store, PUT parts only (the HTTP floor)',
      mean(bare.map((b) => b.partsMs)),
      directParts,
    ),
    row(
      "bare node:http server: PUT parts + store complete (what Node's HTTP server alone allows)",
      bareTotal,
      directTotal,
    ),
    row('store put of the whole file (reference)', putMs, directTotal),
    '',
    `Upload through the API / direct to the store: **${ratio.toFixed(2)}** (target >= ${UPLOAD_TARGET}: ${ratio >= UPLOAD_TARGET ? 'met' : 'NOT met'}); parts phase alone ${(directParts / apiParts).toFixed(2)}. ` +
      `Median of the rounds' own ratios: ${median(api.map((a, i) => (direct[i]?.totalMs ?? 0) / a.totalMs)).toFixed(2)} whole, ${median(api.map((a, i) => (direct[i]?.partsMs ?? 0) / a.partsMs)).toFixed(2)} parts. ` +
      `Node's own HTTP server with no framework, auth, database or ffprobe reaches ${(directTotal / bareTotal).toFixed(2)} whole on this machine (client and server share its cores); the API reaches ${(bareTotal / apiTotal).toFixed(2)} of that ceiling.`,
    '',
    'Per round: 1-minute load average before the API / direct upload, ratios, CPU seconds per GB uploaded, whole upload (parts phase): the API process; the bench process sending to it; the direct writer.',
    '',
    '| round | load | whole ratio | parts ratio | API CPU s/GB | client CPU s/GB | direct CPU s/GB |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...perRound,
    '',
    `API process RSS: ${MB(rss.before)} MiB before the upload, peak ${MB(rss.peak)} MiB while ${(size / 1e6).toFixed(0)} MB streamed (VmHWM after a clear_refs reset; +${MB(rss.peak - rss.before)} MiB).`,
    '',
    ...(reads
      ? readsMarkdown(reads, { ...LOAD, rounds: ROUNDS, tracks: TRACKS })
      : ['Reads: not measured (BENCH_ONLY=upload).', '']),
  ].join('\n');
  await writeBenchResult(UPLOAD_ONLY ? 'music-domain-upload' : 'music-domain', markdown);
}

if (process.argv.includes('--serve')) await (process.env.BENCH_SERVE === 'bare' ? serveBare() : serve());
else await main();
