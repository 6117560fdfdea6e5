/**
 * For bench/health-under-load.ts: a service's health route polled every POLL_MS (from a thread
 * of its own: health-poller.ts) while a few requests of one route are in flight back to back,
 * and the latency percentiles of the poll.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 2);
export const POLL_MS = 50;

/** What health-poller.ts posts: each request's milliseconds and the count of each status. */
export interface PollAnswer {
  latencies: number[];
  statuses: Record<number, number>;
}

/** `url` polled every `every` ms until `until` (Date.now() time) from a thread of its own. */
export async function pollFromThread(
  url: string,
  until: number,
  every: number,
  addressFrom?: number,
): Promise<PollAnswer> {
  const poller = new Worker(new URL('./health-poller.ts', import.meta.url), {
    workerData: { url, until, every, addressFrom },
  });
  try {
    const [answer] = (await once(poller, 'message')) as [PollAnswer];
    return answer;
  } finally {
    await poller.terminate();
  }
}

export interface Load {
  route: string;
  input: string;
  send: () => Promise<number>;
}

export interface Row {
  service: string;
  route: string;
  input: string;
  requests: number;
  statuses: string;
  p50: number;
  p99: number;
  max: number;
}

export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;

export async function measure(health: string, load: Load | undefined): Promise<Omit<Row, 'service'>> {
  const until = Date.now() + SECONDS * 1000;
  const statuses = new Map<number, number>();
  let requests = 0;
  const poll = pollFromThread(health, until, POLL_MS);
  const drivers = load
    ? Array.from({ length: IN_FLIGHT }, async () => {
        while (Date.now() < until) {
          const status = await load.send().catch(() => 0);
          requests++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      })
    : [];
  const [{ latencies }] = await Promise.all([poll, ...drivers]);
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

export const json =
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
