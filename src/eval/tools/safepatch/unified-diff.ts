/**
 * The unified diff of a patch, by the `diff` package, computed only around the sections that
 * changed. Untouched sections are byte-identical and made of whole lines, so diffing a window of
 * each changed stretch (plus the context lines on either side) and shifting the hunks' line
 * numbers gives the same diff as diffing the whole 200,000-character document, at a fraction of
 * the cost. Windows closer than twice the context are merged, so hunks never overlap.
 */
import { formatPatch, structuredPatch, type StructuredPatchHunk } from 'diff';
import type { Section } from './sections.js';

export const CONTEXT = 3;
const OLD_NAME = 'a/document.md';
const NEW_NAME = 'b/document.md';

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Line index (0-based) of an offset that is a line start or the end of the text. */
function lineIndexOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return starts[lo] === offset ? lo : lo + 1;
}

/** The whole-document unified diff, for comparison and for documents without sections. */
export function fullDiff(before: string, after: string): string {
  return formatPatch(
    structuredPatch(OLD_NAME, NEW_NAME, before, after, undefined, undefined, { context: CONTEXT }),
  );
}

/**
 * `before` and `after` are the document before and after; `oldSections[i]` and `newSections[i]`
 * locate section i in each; `changed` lists the sections whose text differs.
 */
export function windowedDiff(
  before: string,
  after: string,
  oldSections: readonly Section[],
  newSections: readonly Section[],
  changed: Iterable<number>,
): string {
  if (before === after) return '';
  const oldStarts = lineStarts(before);
  const newStarts = lineStarts(after);
  const oldTotal = before.endsWith('\n') || before === '' ? oldStarts.length - 1 : oldStarts.length;
  const ranges = [...new Set(changed)]
    .sort((a, b) => a - b)
    .map((i) => ({
      oldA: lineIndexOf(oldStarts, oldSections[i]!.start),
      oldB: lineIndexOf(oldStarts, oldSections[i]!.end),
      newA: lineIndexOf(newStarts, newSections[i]!.start),
      newB: lineIndexOf(newStarts, newSections[i]!.end),
    }));
  const merged: typeof ranges = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r.oldA - last.oldB <= 2 * CONTEXT) {
      last.oldB = r.oldB;
      last.newB = r.newB;
    } else merged.push({ ...r });
  }
  const hunks: StructuredPatchHunk[] = [];
  for (const r of merged) {
    const before0 = Math.min(CONTEXT, r.oldA);
    const after0 = Math.min(CONTEXT, oldTotal - r.oldB);
    const oldA = r.oldA - before0;
    const newA = r.newA - before0;
    const oldB = r.oldB + after0;
    const newB = r.newB + after0;
    const slice = (text: string, starts: readonly number[], a: number, b: number): string =>
      text.slice(starts[a] ?? text.length, b < starts.length ? starts[b] : text.length);
    const patch = structuredPatch(
      OLD_NAME,
      NEW_NAME,
      slice(before, oldStarts, oldA, oldB),
      slice(after, newStarts, newA, newB),
      undefined,
      undefined,
      { context: CONTEXT },
    );
    for (const h of patch.hunks)
      hunks.push({ ...h, oldStart: h.oldStart + oldA, newStart: h.newStart + newA });
  }
  return formatPatch({
    oldFileName: OLD_NAME,
    newFileName: NEW_NAME,
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
  });
}
