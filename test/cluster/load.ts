/**
 * Scenario 1: a bounded mix through lb — HLS listeners, uploads, comments, Subsonic browsing,
 * eval tools and batches — from 150 client addresses: throughput and p99 per route, and the CPU
 * each host used, to say which saturates first.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, setGlobalDispatcher } from 'undici';
import { expect } from 'vitest';
import { percentile } from '../../load-tests/lib/report.js';
import { noiseWav } from '../../load-tests/scenarios/upload-burst.js';
import { examples } from '../../src/eval/routes/info.js';
import { clientFetch } from './clients.js';
import { LB, musicUrl, type Cluster } from './cluster.js';
import { untilReady, uploadTrack, type UploadedTrack } from './music-client.js';
import { cpuOn, CLIENT_ADDRESSES, HOSTS, type HostName } from './netns.js';
import { unitCostLines, type CpuUse } from './load-costs.js';
import { record } from './results.js';

const SECONDS = Number(process.env.CLUSTER_LOAD_SECONDS ?? 40);
const UPLOAD_SECONDS = 5;
const UPLOAD_ROUTE = 'upload (signup, init, part, complete, track, version)';
const BATCH_ROUTE = 'POST /api/batch (20 lines)';

interface Row {
  ok: number;
  other: Map<string, number>;
  ms: number[];
  /** Answers nginx served from its media cache (X-Cache-Status HIT): the API never saw them. */
  cached: number;
}

export async function loadMix(cluster: Cluster, track: UploadedTrack): Promise<void> {
  const rows = new Map<string, Row>();
  const note = (route: string, status: number | 'error', ms: number, cached = false): void => {
    const row: Row = rows.get(route) ?? { ok: 0, other: new Map<string, number>(), ms: [], cached: 0 };
    rows.set(route, row);
    row.ms.push(ms);
    if (cached) row.cached += 1;
    if (status === 200 || status === 201) row.ok += 1;
    else row.other.set(String(status), (row.other.get(String(status)) ?? 0) + 1);
  };
  let n = 0;
  const timed = async (
    route: string,
    url: string,
    init: Parameters<typeof clientFetch>[2] = {},
  ): Promise<string> => {
    const started = performance.now();
    try {
      const res = await clientFetch(n++, url, { ...init, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      note(route, res.status, performance.now() - started, res.headers.get('x-cache-status') === 'HIT');
      return text;
    } catch {
      note(route, 'error', performance.now() - started);
      return '';
    }
  };

  // Subsonic: a client key of the track's owner; comments: 10 commenters (20 an hour each).
  const keyRes = await fetch(`${musicUrl('api1')}/api/v1/me/client-keys`, {
    method: 'POST',
    headers: { ...track.headers },
    body: JSON.stringify({ name: 'cluster load' }),
  });
  expect(keyRes.status, await keyRes.clone().text()).toBe(201);
  const apiKey = ((await keyRes.json()) as { key: string }).key;
  const commenters: string[] = [];
  for (let i = 0; i < 10; i++) {
    const handle = `l_${randomBytes(5).toString('hex')}`;
    const res = await fetch(`${musicUrl('api2')}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${100 + i}` },
      body: JSON.stringify({ handle, email: `${handle}@example.org`, password: 'cluster load passphrase' }),
    });
    commenters.push(((await res.json()) as { token: string }).token);
  }
  const trackJson = JSON.parse(
    await timed('GET /api/v1/tracks/:id', `${LB}/api/v1/tracks/${track.trackId}`),
  ) as {
    current_version: { hls_url: string };
  };
  const hls = new URL(trackJson.current_version.hls_url, LB).toString();
  const gate = JSON.stringify(examples().examples.gate);
  const counterexample = JSON.stringify(examples().examples.counterexample);
  const batch =
    Array.from({ length: 20 }, (_, i) =>
      JSON.stringify({ id: `b${i}`, tool: 'gate', request: examples().examples.gate }),
    ).join('\n') + '\n';

  const deadline = performance.now() + SECONDS * 1000;
  const hosts = Object.keys(HOSTS) as HostName[];
  const cpuBefore = await Promise.all(hosts.map(cpuOn));
  const started = performance.now();
  const load0 = loadavg()[0]!;
  const loop = (body: () => Promise<void>) => async (): Promise<void> => {
    while (performance.now() < deadline) await body();
  };
  const listener = loop(async () => {
    const master = await timed('GET /media/hls/… (playlists)', hls);
    const variant = master.split('\n').find((l) => l && !l.startsWith('#'));
    if (!variant) return;
    const variantUrl = new URL(variant, hls).toString();
    const playlist = await timed('GET /media/hls/… (playlists)', variantUrl);
    for (const seg of playlist
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .slice(0, 4))
      await timed('GET /media/hls/… (segments)', new URL(seg, variantUrl).toString());
  });
  let commentNo = 0;
  const commenter = loop(async () => {
    const i = commentNo++;
    if (i >= commenters.length * 20) return void (await sleep(200));
    await timed('POST /api/v1/comments', `${LB}/api/v1/comments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${commenters[i % commenters.length]}`,
      },
      body: JSON.stringify({ track_id: track.trackId, body: `load comment ${i}` }),
    });
    await timed('GET /api/v1/tracks/:id/comments', `${LB}/api/v1/tracks/${track.trackId}/comments`);
  });
  const subsonic = loop(async () => {
    for (const view of ['getArtists', 'getAlbumList2', 'search3'])
      await timed(
        `GET /rest/${view}`,
        `${LB}/rest/${view}.view?apiKey=${apiKey}&f=json&v=1.16.1&c=cluster${view === 'getAlbumList2' ? '&type=newest' : view === 'search3' ? '&query=Cluster' : ''}`,
      );
  });
  const tools = loop(async () => {
    const json = { 'content-type': 'application/json' };
    await timed('POST /api/gate', `${LB}/api/gate`, { method: 'POST', headers: json, body: gate });
    await timed('POST /api/counterexample', `${LB}/api/counterexample`, {
      method: 'POST',
      headers: json,
      body: counterexample,
    });
  });
  const batches = loop(async () => {
    await timed(BATCH_ROUTE, `${LB}/api/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: batch,
    });
  });
  // Uploads: one account per upload, each from an address of its own (the auth zone is 5 a minute),
  // each made a track's version, so the workers transcode it.
  let uploadNo = 0;
  const versions: string[] = [];
  const uploader = loop(async () => {
    const address = CLIENT_ADDRESSES[CLIENT_ADDRESSES.length - 1 - (uploadNo++ % 40)]!;
    setGlobalDispatcher(new Agent({ localAddress: address, connect: { ca: cluster.ca } }));
    const t0 = performance.now();
    const done = await uploadTrack(cluster, noiseWav(UPLOAD_SECONDS, 22_050), address).catch(() => undefined);
    if (done) versions.push(done.versionId);
    note(UPLOAD_ROUTE, done ? 200 : 'error', performance.now() - t0);
  });
  await Promise.all([
    ...Array.from({ length: 6 }, listener),
    ...Array.from({ length: 2 }, commenter),
    ...Array.from({ length: 3 }, subsonic),
    ...Array.from({ length: 3 }, tools),
    batches(),
    uploader(),
  ]);
  const wall = (performance.now() - started) / 1000;
  setGlobalDispatcher(new Agent({ connect: { ca: cluster.ca } }));
  const cpuAfter = await Promise.all(hosts.map(cpuOn));
  // The workers' share is counted until the uploads made in the run are transcoded.
  await untilReady(cluster, versions);
  const transcoded = (performance.now() - started) / 1000;
  const cpuReady = await Promise.all(hosts.map(cpuOn));

  const table = [...rows].map(([route, row]) => {
    const sorted = [...row.ms].sort((a, b) => a - b);
    const others = [...row.other].map(([s, c]) => `${c} × ${s}`).join(', ') || '-';
    return `| ${route} | ${row.ms.length} | ${(row.ms.length / wall).toFixed(1)} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} | ${others} |`;
  });
  const cpuRows: { host: string; name: string; cores: number }[] = [];
  hosts.forEach((host, i) => {
    for (const [name, after] of cpuAfter[i]!) {
      const used = after - (cpuBefore[i]!.get(name) ?? 0);
      if (used > 0.05) cpuRows.push({ host, name, cores: used / wall });
    }
  });
  cpuRows.sort((a, b) => b.cores - a.cores);
  const total = cpuRows.reduce((s, r) => s + r.cores, 0);
  const use: CpuUse[] = hosts.flatMap((host, i) => {
    const at = host.startsWith('worker') ? cpuReady[i]! : cpuAfter[i]!;
    return [...at].map(([name, after]) => ({ host, name, seconds: after - (cpuBefore[i]!.get(name) ?? 0) }));
  });
  const count = (pick: (route: string) => boolean, each = (r: Row) => r.ms.length - r.cached): number =>
    [...rows].filter(([route]) => pick(route)).reduce((s, [, r]) => s + each(r), 0);
  const isEval = (route: string) => route.startsWith('POST /api/') && !route.startsWith('POST /api/v1/');
  const uploads = rows.get(UPLOAD_ROUTE)?.ms.length ?? 0;
  const units = {
    // An upload is 6 API requests (signup, init, one part, complete, track, version).
    musicRequests: count((r) => !isEval(r) && r !== UPLOAD_ROUTE) + uploads * 6,
    evalTasks: count(isEval, (r) => r.ms.length) + 19 * (rows.get(BATCH_ROUTE)?.ms.length ?? 0),
    audioSeconds: versions.length * UPLOAD_SECONDS,
    lbRequests:
      count(
        () => true,
        (r) => r.ms.length,
      ) +
      uploads * 5,
  };
  record('1. Load: a bounded mix through lb', [
    `${SECONDS} s; 6 HLS listeners (master, variant, 4 segments each round), 2 commenters (10 accounts, within 20 an`,
    `hour each) reading the comments back, 3 Subsonic browsers (apiKey; getArtists, getAlbumList2, search3), 3 eval`,
    `tool loops (gate, counterexample; every call crosses the verify queue), 1 batch loop (20 gate lines), 1 uploader`,
    `(a new account per upload, ${UPLOAD_SECONDS} s WAV, made a track's version: the workers transcode it); each request from the next of 150 client addresses. Load average ${load0.toFixed(1)}`,
    `when it began.`,
    '',
    '| route | requests | per second | p50 (ms) | p99 (ms) | not 2xx |',
    '| ----- | -------: | ---------: | -------: | -------: | ------- |',
    ...table,
    '',
    `CPU used during the run, in cores (CPU seconds / wall seconds; the machine has 2, shared with other sessions):`,
    `${total.toFixed(2)} cores by the cluster in all.`,
    '',
    '| host | process | cores |',
    '| ---- | ------- | ----: |',
    ...cpuRows.slice(0, 14).map((r) => `| ${r.host} | ${r.name} | ${r.cores.toFixed(2)} |`),
    '',
    `CPU per unit of work (the workers' until the run's ${versions.length} uploads were transcoded, ${transcoded.toFixed(0)} s`,
    `after the start; nginx's media cache hits not counted as API requests):`,
    '',
    ...unitCostLines(use, units),
  ]);
  expect(rows.get('GET /media/hls/… (segments)')?.ok ?? 0).toBeGreaterThan(0);
  for (const [route, row] of rows)
    expect(
      [...row.other.keys()].filter((s) => s === 'error' || s.startsWith('5')),
      route,
    ).toEqual([]);
}
