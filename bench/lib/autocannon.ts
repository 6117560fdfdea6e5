/** Shared autocannon runner and report helpers for the HTTP benchmarks. */
import autocannon from 'autocannon';
import { processCpuMs } from './process-cpu.js';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Requests answered in the run. */
  requests: number;
  /** CPU time of the `cpuPid` process (all its threads) per answered request; NaN without one. */
  cpuMsPerRequest: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds?: number;
  pipelining?: number;
  /** The server's process id: its CPU time is read around the run (a shared machine's
   * load weighs less on CPU time than on throughput). */
  cpuPid?: number;
  /** Stop after this many requests instead of after the duration. */
  amount?: number;
}

export async function load(label: string, o: LoadOptions): Promise<LoadResult> {
  const cpu0 = o.cpuPid === undefined ? NaN : processCpuMs(o.cpuPid);
  const started = performance.now();
  const result = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    body: o.body,
    headers: o.headers,
    connections: o.connections ?? 10,
    duration: o.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 10),
    pipelining: o.pipelining ?? 1,
    // autocannon ends a run only at its next sample tick: with `amount`, a 1 s tick added up to a
    // second to the run's end; sampled every 10 ms, the run's own wall time is the rate's base.
    ...(o.amount ? { amount: o.amount, sampleInt: 10 } : {}),
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    label,
    requestsPerSecond: o.amount ? result.requests.total / seconds : result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    requests: result.requests.total,
    cpuMsPerRequest:
      o.cpuPid === undefined || result.requests.total === 0
        ? NaN
        : (processCpuMs(o.cpuPid) - cpu0) / result.requests.total,
  };
}

export function table(rows: LoadResult[]): string {
  const lines = [
    '| run | req/s | p50 ms | p99 ms | non-2xx | errors | server CPU ms / request |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.label} | ${r.requestsPerSecond.toFixed(1)} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.errors} | ${Number.isNaN(r.cpuMsPerRequest) ? '' : r.cpuMsPerRequest.toFixed(3)} |`,
    );
  }
  return lines.join('\n');
}

export function ratio(a: number, b: number): string {
  return b === 0 ? 'n/a' : (a / b).toFixed(2);
}
