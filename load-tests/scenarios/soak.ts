/**
 * Soak: eval mixed traffic and music browse/stream, round after round, for the whole run;
 * every sample interval (a minute by default) each service's RSS and event-loop delay (p99)
 * from its /metrics, printed as a line; at the end the RSS series of each service goes through
 * the steady-growth detector, and growth fails the run.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { detectGrowth } from '../../src/ops/growth.js';
import { newTally, type ScenarioResult, type Tally } from '../lib/report.js';
import { browseStream } from './browse-stream.js';
import { evalMixed } from './eval-mixed.js';
import type { LoadOptions } from './options.js';

export interface ProcessSample {
  rssBytes: number;
  eventLoopDelayP99Seconds: number;
}

/** The two default prom-client gauges the soak watches, from a text exposition. */
export function parseProcessSample(metrics: string): ProcessSample | undefined {
  const value = (name: string) => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'm').exec(metrics);
    return m ? Number(m[1]) : undefined;
  };
  const rss = value('process_resident_memory_bytes');
  const lag = value('nodejs_eventloop_lag_p99_seconds');
  return rss === undefined || lag === undefined
    ? undefined
    : { rssBytes: rss, eventLoopDelayP99Seconds: lag };
}

export interface SoakTargets {
  evalUrl: string;
  musicUrl: string;
  trackIds: readonly string[];
}

export async function soak(
  targets: SoakTargets,
  options: LoadOptions & { sampleSeconds: number },
  print: (line: string) => void,
): Promise<ScenarioResult> {
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const services = { eval: targets.evalUrl, 'music-api': targets.musicUrl };
  const series: Record<string, number[]> = { eval: [], 'music-api': [] };
  const failures: string[] = [];
  const merged: Record<string, Tally> = {};
  const sampling = (async () => {
    while (performance.now() < deadline) {
      const line: string[] = [`t=${((performance.now() - started) / 1000).toFixed(0)}s`];
      for (const [name, base] of Object.entries(services)) {
        const sample = parseProcessSample(
          await fetch(`${base}/metrics`)
            .then((r) => r.text())
            .catch(() => ''),
        );
        if (!sample) {
          failures.push(`${name}: /metrics gave no RSS or event-loop delay`);
          continue;
        }
        series[name]!.push(sample.rssBytes);
        line.push(
          `${name} rss ${(sample.rssBytes / 2 ** 20).toFixed(1)} MB, loop p99 ${(sample.eventLoopDelayP99Seconds * 1000).toFixed(1)} ms`,
        );
      }
      print(line.join(' | '));
      await delay(Math.max(0, Math.min(options.sampleSeconds * 1000, deadline - performance.now())));
    }
  })();
  while (performance.now() < deadline) {
    const round = Math.max(1, Math.min(30, (deadline - performance.now()) / 1000));
    const results = await Promise.all([
      evalMixed(targets.evalUrl, { ...options, seconds: round }),
      targets.trackIds.length > 0
        ? browseStream(targets.musicUrl, targets.trackIds, { ...options, seconds: round })
        : undefined,
    ]);
    for (const r of results) {
      if (!r) continue;
      failures.push(...r.failures.filter((f) => !failures.includes(f)).slice(0, 5));
      for (const { label, tally } of r.rows) {
        const into = (merged[`${r.name}: ${label}`] ??= newTally());
        into.requests += tally.requests;
        into.errors += tally.errors;
        into.latenciesMs.push(...tally.latenciesMs);
        for (const [c, n] of Object.entries(tally.status)) into.status[c] = (into.status[c] ?? 0) + n;
      }
    }
  }
  await sampling;
  const notes: string[] = [];
  for (const [name, values] of Object.entries(series)) {
    const v = detectGrowth(values);
    notes.push(
      `${name}: ${values.length} RSS samples, ${v.insufficient ? 'too few to judge growth' : `slope ${(v.slopePerSample / 2 ** 20).toFixed(2)} MB/sample, t ${v.t.toFixed(1)}, rise ${(v.relativeGrowth * 100).toFixed(1)}%`}`,
    );
    if (v.growing)
      failures.push(
        `${name}: RSS grows steadily (${(v.relativeGrowth * 100).toFixed(1)}% over the run, t ${v.t.toFixed(1)})`,
      );
  }
  return {
    name: 'soak',
    seconds: (performance.now() - started) / 1000,
    rows: Object.entries(merged).map(([label, tally]) => ({ label, tally })),
    failures,
    notes,
  };
}
