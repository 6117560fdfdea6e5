/**
 * Worker thread of health-poll.ts: polls a health URL every POLL_MS until `until` and posts the
 * latencies. A thread of its own, so the load the bench drives (bodies it sends and reads on
 * the main thread) never delays the poll: its latency is the service's.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { url, until, every } = workerData as { url: string; until: number; every: number };
const latencies: number[] = [];
while (Date.now() < until) {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  latencies.push(ms);
  if (ms < every) await new Promise((r) => setTimeout(r, every - ms));
}
parentPort!.postMessage(latencies);
