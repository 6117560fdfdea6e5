/**
 * What a served child's own process saw over a phase of a bench, apart from the machine's load
 * on the client: its event loop's delay (perf_hooks) and the CPU time of its main thread and of
 * the whole process (the other threads: libuv's pool, a hash thread). The child answers each
 * `gauges` line on its stdin with the figures since the previous one.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import type { ServeChild } from './music-app.js';

export interface Gauges {
  /** Event-loop delay, milliseconds. */
  loopP50: number;
  loopP99: number;
  loopMax: number;
  /** CPU milliseconds of the main thread and of the whole process. */
  mainCpuMs: number;
  processCpuMs: number;
}

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

/** Child side: starts measuring and answers `gauges` lines (call once the child serves). */
export function answerGauges(): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let thread = process.threadCpuUsage();
  let whole = process.cpuUsage();
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line !== 'gauges') return;
    const gauges: Gauges = {
      loopP50: delay.percentile(50) / 1e6,
      loopP99: delay.percentile(99) / 1e6,
      loopMax: delay.max / 1e6,
      mainCpuMs: cpuMs(process.threadCpuUsage(thread)),
      processCpuMs: cpuMs(process.cpuUsage(whole)),
    };
    delay.reset();
    thread = process.threadCpuUsage();
    whole = process.cpuUsage();
    process.stdout.write(JSON.stringify(gauges) + '\n');
  });
}

/** Parent side: the child's gauges since the last call. */
export async function readGauges(child: ServeChild<unknown>): Promise<Gauges> {
  child.sendLine('gauges');
  return JSON.parse(await child.nextLine()) as Gauges;
}
