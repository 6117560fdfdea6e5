/**
 * Scenario 1's CPU per unit of work, by kind of host: what docs/scaling.md multiplies out to N
 * hosts. CPU seconds are read from /proc for every process of a host (threads included).
 */
import type { HostName } from './netns.js';

/** CPU seconds one process name used on one host during the run. */
export interface CpuUse {
  host: HostName;
  name: string;
  seconds: number;
}

interface Units {
  /** Requests that reached a music-api (nginx's cache hits excluded). */
  musicRequests: number;
  /** Tool calls plus batch lines: each crossed the verify queue. */
  evalTasks: number;
  /** Seconds of audio uploaded and transcoded. */
  audioSeconds: number;
  /** Every request lb answered. */
  lbRequests: number;
}

/** Hosts are planned at 70 % of their cores: CPU milliseconds per wall second and core. */
const CORE_BUDGET_MS = 0.7 * 1000;

const sum = (use: CpuUse[], pick: (u: CpuUse) => boolean): number =>
  use.filter(pick).reduce((s, u) => s + u.seconds, 0);

/** The table's rows: CPU per unit, and what one host at 70 % carries (2 cores; Redis runs commands on 1). */
export function unitCostLines(use: CpuUse[], units: Units): string[] {
  const on =
    (...hosts: HostName[]) =>
    (u: CpuUse) =>
      hosts.includes(u.host);
  const rows: [string, number, number, string][] = [
    ['music-api (api1 + api2)', sum(use, on('api1', 'api2')), units.musicRequests, 'API requests'],
    ['eval (eval1 + eval2)', sum(use, on('eval1', 'eval2')), units.evalTasks, 'eval tasks'],
    ['verify-worker (verify1 + verify2)', sum(use, on('verify1', 'verify2')), units.evalTasks, 'eval tasks'],
    [
      'music-worker + ffmpeg (worker1 + worker2)',
      sum(use, on('worker1', 'worker2')),
      units.audioSeconds,
      'audio s',
    ],
    ['nginx (lb)', sum(use, on('lb')), units.lbRequests, 'requests'],
    [
      'PostgreSQL (data)',
      sum(use, (u) => u.host === 'data' && u.name === 'postgres'),
      units.musicRequests,
      'API requests',
    ],
    [
      'Redis (data)',
      sum(use, (u) => u.host === 'data' && u.name === 'redis-server'),
      units.musicRequests + units.evalTasks,
      'API requests + eval tasks',
    ],
  ];
  const cores = (what: string): number => (what.startsWith('Redis') ? 1 : 2);
  return [
    '| process | CPU (s) | units | CPU per unit (ms) | one host at 70 % carries (units/s) |',
    '| ------- | ------: | ----: | ----------------: | ---------------------------------: |',
    ...rows.map(([what, seconds, n, unit]) => {
      const perUnit = n > 0 ? (seconds * 1000) / n : NaN;
      return `| ${what} | ${seconds.toFixed(1)} | ${n} ${unit} | ${perUnit.toFixed(2)} | ${((cores(what) * CORE_BUDGET_MS) / perUnit).toFixed(0)} (${cores(what)} cores) |`;
    }),
  ];
}
