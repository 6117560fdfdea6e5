/** What the music-domain bench measures besides the uploads: read load, process memory, small statistics. */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

/** autocannon's settings for one read run, and how many runs are averaged. */
export interface ReadLoad {
  connections: number;
  pipelining: number;
  duration: number;
  rounds: number;
}

/** Each path starts with no dirty pages: the kernel's writeback of one path's 800 MB is not charged to the next. */
export async function flushDirtyPages(): Promise<void> {
  await promisify(execFile)('sync');
}

function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  // A tiny procfs file, read synchronously: exact at the moment of sampling.
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Peak RSS of `pid` while `work` runs: VmHWM after a clear_refs reset, or sampled VmRSS. */
export async function peakRss<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; before: number; peak: number }> {
  const before = procStatus(pid, 'VmRSS');
  let reset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  let sampled = before;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, procStatus(pid, 'VmRSS'));
  }, 50);
  try {
    const result = await work();
    const hwm = procStatus(pid, 'VmHWM');
    return { result, before, peak: reset ? Math.max(hwm, sampled) : sampled };
  } finally {
    clearInterval(timer);
  }
}

export interface Load {
  rps: number;
  p99: number;
  bad: number;
}

async function cannon(url: string, load: ReadLoad): Promise<Load> {
  const r = await autocannon({
    url,
    connections: load.connections,
    pipelining: load.pipelining,
    duration: load.duration,
  });
  return { rps: r.requests.average, p99: r.latency.p99, bad: r.errors + r.non2xx };
}

export async function measureReads(
  served: { url: string; trackId: string },
  load: ReadLoad,
): Promise<{ health: Load; track: Load; trending: Load }> {
  const trackUrl = `${served.url}/api/v1/tracks/${served.trackId}`;
  const trendingUrl = `${served.url}/api/v1/trending?window=day&limit=20`;
  for (const url of [trackUrl, trendingUrl, `${served.url}/api/v1/health`]) {
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  }
  const trending = (await (await fetch(trendingUrl)).json()) as { items?: unknown[] };
  if (!Array.isArray(trending.items) || trending.items.length === 0) throw new Error('trending is empty');
  await autocannon({ url: trackUrl, connections: 10, duration: 2 });
  const health: Load[] = [];
  const track: Load[] = [];
  const trend: Load[] = [];
  for (let round = 0; round < load.rounds; round++) {
    health.push(await cannon(`${served.url}/api/v1/health`, load));
    track.push(await cannon(trackUrl, load));
    trend.push(await cannon(trendingUrl, load));
  }
  const avg = (runs: Load[]): Load => ({
    rps: mean(runs.map((r) => r.rps)),
    p99: mean(runs.map((r) => r.p99)),
    bad: runs.reduce((a, r) => a + r.bad, 0),
  });
  return { health: avg(health), track: avg(track), trending: avg(trend) };
}

export function readsMarkdown(
  reads: { health: Load; track: Load; trending: Load },
  load: ReadLoad & { tracks: number },
): string[] {
  const readRow = (name: string, f: Load): string =>
    `| ${name} | ${f.rps.toFixed(0)} | ${f.p99.toFixed(1)} | ${(f.rps / reads.health.rps).toFixed(2)} | ${(f.p99 / Math.max(1, reads.health.p99)).toFixed(2)} | ${f.bad} |`;
  return [
    `Reads: autocannon ${load.connections} connections, ${load.duration} s per run, ${load.rounds} rounds (mean), against the same API process; ${load.tracks} public tracks with ready versions, trending after a rollup.`,
    '',
    '| route | req/s | p99 ms | req/s ratio to health | p99 ratio to health | errors + non-2xx |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    readRow('GET /api/v1/health (baseline: database, cache and store probes)', reads.health),
    readRow('GET /api/v1/tracks/:id (ready version, signed URLs)', reads.track),
    readRow('GET /api/v1/trending?window=day (from Redis)', reads.trending),
    '',
  ];
}

export const cpuMsSince = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
export const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
export const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
export const mbps = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);
