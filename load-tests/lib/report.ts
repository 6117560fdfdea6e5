/**
 * What every load scenario returns and prints: a summary table (requests, rate, latency
 * percentiles, status classes, errors) and whether it passed. A scenario fails on any 5xx or
 * transport error, and on any check of its own that did not hold.
 */
export interface Tally {
  requests: number;
  status: Record<string, number>;
  errors: number;
  latenciesMs: number[];
}

export interface ScenarioResult {
  name: string;
  seconds: number;
  rows: { label: string; tally: Tally }[];
  /** Scenario-specific findings that must hold (e.g. "exactly 21 admitted"). */
  failures: string[];
  notes: string[];
}

export function newTally(): Tally {
  return { requests: 0, status: {}, errors: 0, latenciesMs: [] };
}

export function record(t: Tally, status: number | 'error', ms: number): void {
  t.requests += 1;
  if (status === 'error') t.errors += 1;
  else {
    const cls = `${Math.floor(status / 100)}xx`;
    t.status[cls] = (t.status[cls] ?? 0) + 1;
  }
  t.latenciesMs.push(ms);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Failures of a result: its own plus every 5xx and transport error in its rows. */
export function failuresOf(result: ScenarioResult): string[] {
  const out = [...result.failures];
  for (const { label, tally } of result.rows) {
    if (tally.status['5xx']) out.push(`${label}: ${tally.status['5xx']} answers were 5xx`);
    if (tally.errors) out.push(`${label}: ${tally.errors} requests failed without an answer`);
  }
  return out;
}

export function formatResult(result: ScenarioResult): string {
  const header = [
    '',
    'requests',
    'req/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    '2xx',
    '3xx',
    '4xx',
    '5xx',
    'errors',
  ];
  const lines = result.rows.map(({ label, tally }) => {
    const sorted = [...tally.latenciesMs].sort((a, b) => a - b);
    return [
      label,
      String(tally.requests),
      (tally.requests / Math.max(result.seconds, 0.001)).toFixed(1),
      percentile(sorted, 50).toFixed(1),
      percentile(sorted, 99).toFixed(1),
      (sorted.at(-1) ?? 0).toFixed(1),
      ...['2xx', '3xx', '4xx', '5xx'].map((c) => String(tally.status[c] ?? 0)),
      String(tally.errors),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const failures = failuresOf(result);
  return [
    `== ${result.name} (${result.seconds.toFixed(1)} s) ==`,
    fmt(header),
    ...lines.map(fmt),
    ...result.notes.map((n) => `note: ${n}`),
    failures.length === 0 ? 'result: PASS' : `result: FAIL\n${failures.map((f) => `  - ${f}`).join('\n')}`,
    '',
  ].join('\n');
}
