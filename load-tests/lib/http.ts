/** Timed requests for the scenarios, and the guard that keeps load on hosts the operator runs. */
import { record, type Tally } from './report.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** One request, recorded in `tally`; undefined when it failed without an answer. */
export async function timed(tally: Tally, url: string, init: RequestInit = {}): Promise<Answer | undefined> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    const body = Buffer.from(await res.arrayBuffer());
    record(tally, res.status, performance.now() - started);
    return { status: res.status, headers: res.headers, body };
  } catch {
    record(tally, 'error', performance.now() - started);
    return undefined;
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Refuses a non-loopback target unless LOAD_ALLOW_REMOTE=1 (for a host you run). */
export function assertTarget(base: string, env: NodeJS.ProcessEnv = process.env): void {
  const host = new URL(base).hostname;
  if (!LOOPBACK.has(host) && env.LOAD_ALLOW_REMOTE !== '1')
    throw new Error(`refusing to load ${host}: only loopback unless LOAD_ALLOW_REMOTE=1 for a host you run`);
}

/** Runs `worker` on `connections` parallel loops until the deadline or the iteration budget. */
export async function runFor(
  options: { seconds: number; connections: number; maxIterations: number },
  worker: () => Promise<void>,
): Promise<number> {
  const deadline = performance.now() + options.seconds * 1000;
  let started = 0;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline && started < options.maxIterations) {
      started += 1;
      await worker();
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  return started;
}
