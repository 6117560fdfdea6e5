/** Paired-cohort checks and tallies shared by gate and inspect. */
import { invalidInput, pointer, type FieldError } from '../../../core/errors.js';

const MAX_LISTED = 10;

/** 400 unless both maps hold exactly the same item ids, naming the first differences. */
export function assertSameCohort(
  baseline: Record<string, boolean>,
  candidate: Record<string, boolean>,
  names: { baseline: string; candidate: string } = { baseline: 'baseline', candidate: 'candidate' },
  baselineIds: readonly string[] = Object.keys(baseline),
  candidateCount: number = Object.keys(candidate).length,
): void {
  // The common case, identical cohorts, is decided in one pass without sorting (and with
  // the caller's key list, as listing the keys of a 5000-entry map is not free); the sorted
  // listing below runs only to name the differences.
  let same = baselineIds.length === candidateCount;
  for (let i = 0; same && i < baselineIds.length; i++) same = Object.hasOwn(candidate, baselineIds[i]!);
  if (same) return;
  const errors: FieldError[] = [];
  let onlyBaseline = 0;
  let onlyCandidate = 0;
  for (const id of Object.keys(baseline).sort()) {
    if (!Object.hasOwn(candidate, id)) {
      onlyBaseline++;
      if (errors.length < MAX_LISTED)
        errors.push({
          path: pointer('candidate', id),
          message: `item "${id}" is in baseline but missing from candidate`,
        });
    }
  }
  for (const id of Object.keys(candidate).sort()) {
    if (!Object.hasOwn(baseline, id)) {
      onlyCandidate++;
      if (errors.length < MAX_LISTED)
        errors.push({
          path: pointer('baseline', id),
          message: `item "${id}" is in candidate but missing from baseline`,
        });
    }
  }
  if (errors.length > 0) {
    throw invalidInput(
      `baseline (${names.baseline}) and candidate (${names.candidate}) must hold exactly the same item ids: ` +
        `${onlyBaseline} only in baseline, ${onlyCandidate} only in candidate` +
        (onlyBaseline + onlyCandidate > MAX_LISTED ? `; the first ${MAX_LISTED} are listed` : '') +
        '.',
      errors,
    );
  }
}

/** 400 when a domain label names an item that is not in the cohort (almost always a typo). */
export function assertDomainsInCohort(
  domains: Record<string, string> | undefined,
  cohort: Record<string, boolean>,
  domainIds: readonly string[] = domains ? Object.keys(domains) : [],
): void {
  if (!domains) return;
  // The common case, every label on a cohort item, is decided without sorting 5000 ids.
  let all = true;
  for (let i = 0; all && i < domainIds.length; i++) all = Object.hasOwn(cohort, domainIds[i]!);
  if (all) return;
  const errors: FieldError[] = [];
  let count = 0;
  for (const id of Object.keys(domains).sort()) {
    if (!Object.hasOwn(cohort, id)) {
      count++;
      if (errors.length < MAX_LISTED)
        errors.push({
          path: pointer('domains', id),
          message: `labels item "${id}", which is not in the cohort`,
        });
    }
  }
  if (count > 0)
    throw invalidInput(`domains names ${count} item id(s) that are not in baseline/candidate.`, errors);
}

export type PairOutcome = 'gain' | 'regression' | 'both_pass' | 'both_fail';

export function pairOutcome(base: boolean, cand: boolean): PairOutcome {
  if (base === cand) return base ? 'both_pass' : 'both_fail';
  return cand ? 'gain' : 'regression';
}

/**
 * The map's own value for `key`, never an inherited one: item ids such as "constructor" or
 * "__proto__" are ordinary ids here, and `map[key]` would find Object.prototype's members.
 */
export function ownValue<T>(map: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}

/** An empty map safe for any key: assigning "__proto__" creates an entry, not a prototype. */
export function emptyMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
