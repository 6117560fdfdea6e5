/**
 * Pairs the items of two cohorts. Nothing is dropped silently: items on one side only, items
 * whose input hash differs between sides (the same id, another question) and duplicate rows
 * are listed; errored runs follow the errors policy and are counted.
 */
import type { Duplicate, LogCohort, LogItem } from './cohort.js';

export type ErrorsPolicy = 'fail' | 'exclude';

export interface SideRuns {
  passes: number;
  runs: number;
}

export interface JoinedItem {
  id: string;
  base: SideRuns;
  cand: SideRuns;
}

export interface JoinResult {
  /** Sorted by id (UTF-16 order). */
  matched: JoinedItem[];
  onlyBaseline: string[];
  onlyCandidate: string[];
  inputChanged: { item_id: string; baseline_input_sha256: string; candidate_input_sha256: string }[];
  /** Items left with no run on a side once errored runs were excluded. */
  excluded: string[];
  erroredRuns: { baseline: number; candidate: number };
  duplicates: { baseline: Duplicate[]; candidate: Duplicate[] };
}

function tally(item: LogItem, policy: ErrorsPolicy): { runs: SideRuns; errored: number } {
  let passes = 0;
  let runs = 0;
  let errored = 0;
  for (const r of item.runs.values()) {
    if (r.errored) {
      errored++;
      if (policy === 'exclude') continue;
    }
    runs++;
    if (r.passed && !r.errored) passes++;
  }
  return { runs: { passes, runs }, errored };
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function joinCohorts(baseline: LogCohort, candidate: LogCohort, policy: ErrorsPolicy): JoinResult {
  const out: JoinResult = {
    matched: [],
    onlyBaseline: [],
    onlyCandidate: [],
    inputChanged: [],
    excluded: [],
    erroredRuns: { baseline: 0, candidate: 0 },
    duplicates: { baseline: baseline.duplicates, candidate: candidate.duplicates },
  };
  for (const item of baseline.items.values()) out.erroredRuns.baseline += tally(item, policy).errored;
  for (const item of candidate.items.values()) out.erroredRuns.candidate += tally(item, policy).errored;
  for (const [id, b] of baseline.items) {
    const c = candidate.items.get(id);
    if (!c) {
      out.onlyBaseline.push(id);
      continue;
    }
    if (b.inputHash !== null && c.inputHash !== null && b.inputHash !== c.inputHash) {
      out.inputChanged.push({
        item_id: id,
        baseline_input_sha256: b.inputHash,
        candidate_input_sha256: c.inputHash,
      });
      continue;
    }
    const base = tally(b, policy).runs;
    const cand = tally(c, policy).runs;
    if (base.runs === 0 || cand.runs === 0) out.excluded.push(id);
    else out.matched.push({ id, base, cand });
  }
  for (const id of candidate.items.keys()) if (!baseline.items.has(id)) out.onlyCandidate.push(id);
  out.matched.sort((x, y) => byId(x.id, y.id));
  out.onlyBaseline.sort(byId);
  out.onlyCandidate.sort(byId);
  out.inputChanged.sort((x, y) => byId(x.item_id, y.item_id));
  out.excluded.sort(byId);
  return out;
}
