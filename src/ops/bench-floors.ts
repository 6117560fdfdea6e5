/**
 * The latency guard's logic: read each ratio from its bench's report and hold it to the floor
 * stated in bench/floors.json. A ratio that cannot be found is a failure too (a bench that
 * changed its report must change its floor entry with it).
 */
export interface FloorEntry {
  name: string;
  bench: string;
  /** A regular expression whose first group is the ratio in the bench's report. */
  pattern: string;
  floor: number;
  env?: Record<string, string>;
}

export interface FloorVerdict {
  name: string;
  ratio: number | undefined;
  floor: number;
  ok: boolean;
}

export function parseFloors(json: unknown): FloorEntry[] {
  const floors = (json as { floors?: unknown }).floors;
  if (!Array.isArray(floors) || floors.length === 0)
    throw new Error('bench/floors.json: "floors" must be a non-empty list');
  return floors.map((f: Partial<FloorEntry>, i) => {
    if (typeof f.name !== 'string' || typeof f.bench !== 'string' || typeof f.pattern !== 'string')
      throw new Error(`bench/floors.json: entry ${i} needs name, bench and pattern`);
    if (typeof f.floor !== 'number' || !(f.floor > 0))
      throw new Error(`bench/floors.json: ${f.name}: floor must be a positive ratio`);
    if (new RegExp(f.pattern).source.indexOf('(') < 0)
      throw new Error(`bench/floors.json: ${f.name}: pattern needs a group`);
    return { name: f.name, bench: f.bench, pattern: f.pattern, floor: f.floor, env: f.env ?? {} };
  });
}

export function extractRatio(report: string, pattern: string): number | undefined {
  const m = new RegExp(pattern).exec(report);
  const value = m?.[1] === undefined ? Number.NaN : Number(m[1]);
  return Number.isFinite(value) ? value : undefined;
}

export function judgeFloors(
  entries: readonly FloorEntry[],
  reports: Readonly<Record<string, string | undefined>>,
): FloorVerdict[] {
  return entries.map((e) => {
    const report = reports[e.bench];
    const ratio = report === undefined ? undefined : extractRatio(report, e.pattern);
    return { name: e.name, ratio, floor: e.floor, ok: ratio !== undefined && ratio >= e.floor };
  });
}

export function formatVerdicts(verdicts: readonly FloorVerdict[]): string {
  return verdicts
    .map(
      (v) =>
        `${v.ok ? 'ok  ' : 'FAIL'} ${v.name}: ${v.ratio === undefined ? 'ratio not found in the report' : v.ratio.toFixed(2)} (floor ${v.floor.toFixed(2)})`,
    )
    .join('\n');
}
