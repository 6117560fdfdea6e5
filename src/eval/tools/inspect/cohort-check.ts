/**
 * The checks between the leakage audit and the gate (docs/inspect.md): every cohort item must
 * be an exam item (else 400), and both systems must hold a result for every clean item (else
 * HOLD naming the missing ones).
 */
import { invalidInput, pointer, type FieldError } from '../../../core/errors.js';
import type { ItemAudit } from '../leakage/audit.js';

const MAX_LISTED = 10;

/** 400 when baseline or candidate names an item the exam does not hold: its leakage is unknown. */
export function assertCohortInExam(
  exam: ReadonlySet<string>,
  baseline: Record<string, boolean>,
  candidate: Record<string, boolean>,
): void {
  const errors: FieldError[] = [];
  let count = 0;
  for (const [side, map] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    for (const id of Object.keys(map).sort()) {
      if (exam.has(id)) continue;
      count++;
      if (errors.length < MAX_LISTED)
        errors.push({
          path: pointer(side, id),
          message: `item "${id}" is not in the exam, so its exposure was never audited`,
        });
    }
  }
  if (count > 0)
    throw invalidInput(
      `${count} cohort result(s) name items that are not in the exam` +
        (count > MAX_LISTED ? `; the first ${MAX_LISTED} are listed` : '') +
        '. Add those items to the exam or drop their results: inspect gates only audited items.',
      errors,
    );
}

export interface CohortCheck {
  complete: boolean;
  /** Exam items not quarantined, in exam order. */
  clean_items: string[];
  missing_from_baseline: string[];
  missing_from_candidate: string[];
  /** Quarantined items that had a result in baseline or candidate: left out of the gate. */
  excluded_quarantined: string[];
}

export function checkCleanCohort(
  audited: readonly ItemAudit[],
  baseline: Record<string, boolean>,
  candidate: Record<string, boolean>,
): CohortCheck {
  const check: CohortCheck = {
    complete: true,
    clean_items: [],
    missing_from_baseline: [],
    missing_from_candidate: [],
    excluded_quarantined: [],
  };
  for (const it of audited) {
    const id = it.row.id!;
    const inBase = Object.hasOwn(baseline, id);
    const inCand = Object.hasOwn(candidate, id);
    if (it.decision === 'quarantine') {
      if (inBase || inCand) check.excluded_quarantined.push(id);
      continue;
    }
    check.clean_items.push(id);
    if (!inBase) check.missing_from_baseline.push(id);
    if (!inCand) check.missing_from_candidate.push(id);
  }
  check.complete =
    check.clean_items.length > 0 &&
    check.missing_from_baseline.length === 0 &&
    check.missing_from_candidate.length === 0;
  return check;
}
