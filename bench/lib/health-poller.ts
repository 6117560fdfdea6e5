/**
 * Worker thread of health-poll.ts and login-flood.ts: polls a URL every POLL_MS until `until`
 * and posts the latencies and the count of each status. A thread of its own, so the load the
 * bench drives (bodies it sends and reads on the main thread) never delays the poll: its latency
 * is the service's. With `addressFrom`, each request names an address of its own (the trusted
 * proxy header, `<addressFrom>.x.y.z`), so no per-address limit answers the poll.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { url, until, every, addressFrom } = workerData as {
  url: string;
  until: number;
  every: number;
  addressFrom?: number;
};
const latencies: number[] = [];
const statuses: Record<number, number> = {};
let sent = 0;
while (Date.now() < until) {
  sent++;
  const headers: Record<string, string> =
    addressFrom === undefined
      ? {}
      : { 'x-forwarded-for': `${addressFrom}.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}` };
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  latencies.push(ms);
  statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  if (ms < every) await new Promise((r) => setTimeout(r, every - ms));
}
parentPort!.postMessage({ latencies, statuses });
