/**
 * Checking and applying the operations, in order, to a working copy of the document. An
 * operation that fails a check is not applied to the working copy (so later operations are
 * still checked and the caller learns every problem at once), and the patch as a whole is then
 * rejected.
 */
import type { DecisionStep } from '../../../core/receipt.js';
import { LineIndex, type Edit } from './markdown-headings.js';
import { tokenChange, type ProtectedToken } from './protected-tokens.js';
import type { LinkReferences } from './block-parser.js';
import type { PatchOperation } from './schema.js';
import { resolveTarget, sectionLabel, type Section } from './sections.js';

export interface OperationReport {
  index: number;
  operation: PatchOperation;
  ok: boolean;
  checks: DecisionStep[];
  reasons: string[];
  section: Section | null;
  /** Offset of the match in the working copy when it was applied. */
  at: number | null;
  line: number | null;
  removedTokens: ProtectedToken[];
  addedTokens: ProtectedToken[];
  allowedUsed: string[];
}

export interface WorkingCopy {
  /**
   * The document as one string per section (sections[i] spans texts[i]): an edit rebuilds
   * only its section's string, never the whole document, so fifty edits on 200,000 characters
   * do not copy or re-flatten it fifty times.
   */
  texts: string[];
  /** Line breaks per section text, to number lines without joining the document. */
  newlines: number[];
  sections: Section[];
  /** Line endings of the original: CRLF when every line break is \r\n. */
  crlf: boolean;
  /** Every replacement made, in order, for the incremental re-parse. */
  edits: Edit[];
  /** The original's link reference definitions, for rendering headings that use them. */
  references: LinkReferences;
}

const MAX_LISTED = 5;

/** A CRLF document gets CRLF in `find` and `replace` too, so callers can write plain \n. */
export function adaptNewlines(text: string, crlf: boolean): string {
  return crlf ? text.replace(/\r?\n/g, '\r\n') : text;
}

export function isCrlf(doc: string): boolean {
  let lf = 0;
  let crlf = 0;
  for (let i = doc.indexOf('\n'); i >= 0; i = doc.indexOf('\n', i + 1)) {
    lf++;
    if (doc.charCodeAt(i - 1) === 13) crlf++;
  }
  return crlf > 0 && crlf === lf;
}

export function countNewlines(text: string, end = text.length): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function workingCopy(
  doc: string,
  sections: readonly Section[],
  references: LinkReferences = {},
  edits: Edit[] = [],
): WorkingCopy {
  const texts = sections.map((s) => doc.slice(s.start, s.end));
  return {
    texts,
    newlines: texts.map((t) => countNewlines(t)),
    sections: sections.map((s) => ({ ...s })),
    crlf: isCrlf(doc),
    edits,
    references,
  };
}

/** Positions of `needle` in hay[from, to) (overlapping occurrences count), at most `limit`. */
function occurrences(hay: string, needle: string, from: number, to: number, limit: number): number[] {
  const out: number[] = [];
  // Searching a slice keeps a miss from scanning the rest of a 200,000-character document.
  const part = from === 0 && to === hay.length ? hay : hay.slice(from, to);
  for (let i = part.indexOf(needle); i >= 0; i = part.indexOf(needle, i + 1)) {
    out.push(from + i);
    if (out.length >= limit) break;
  }
  return out;
}

export function checkAndApply(work: WorkingCopy, op: PatchOperation, index: number): OperationReport {
  const report: OperationReport = {
    index,
    operation: op,
    ok: false,
    checks: [],
    reasons: [],
    section: null,
    at: null,
    line: null,
    removedTokens: [],
    addedTokens: [],
    allowedUsed: [],
  };
  const fail = (check: string, reason: string): OperationReport => {
    report.checks.push({ rule: check, outcome: 'fail', detail: reason });
    report.reasons.push(reason);
    return report;
  };

  const target = resolveTarget(work.sections, op.target_heading, work.references);
  if (!target.ok) return fail('target_names_one_section', target.reason);
  const section = target.section;
  report.section = section;
  report.checks.push({
    rule: 'target_names_one_section',
    outcome: 'pass',
    detail: `${sectionLabel(section)}, matched by ${target.matchedBy.replace('_', ' ')}`,
  });

  const find = adaptNewlines(op.find, work.crlf);
  const replace = adaptNewlines(op.replace, work.crlf);
  const text = work.texts[section.index]!;
  const bodyFrom = section.bodyStart - section.start;
  const hits = occurrences(text, find, bodyFrom, text.length, 100);
  if (hits.length !== 1) {
    const doc = work.texts.join('');
    const lines = new LineIndex(doc);
    if (hits.length === 0) {
      const elsewhere = occurrences(doc, find, 0, doc.length, MAX_LISTED).map((i) => lines.lineOf(i));
      const inHeading = text.slice(0, bodyFrom).includes(find);
      let reason = `find does not occur in the body of ${sectionLabel(section)}`;
      if (inHeading) reason += '; it is in the heading itself, which safepatch never edits';
      else if (elsewhere.length > 0) reason += `; it occurs elsewhere, at line(s) ${elsewhere.join(', ')}`;
      else if (doc.toLowerCase().includes(find.toLowerCase()))
        reason += '; it occurs with different letter case';
      return fail('find_occurs_once', reason);
    }
    const where = hits
      .slice(0, MAX_LISTED)
      .map((i) => `${lines.lineOf(section.start + i)}:${lines.columnOf(section.start + i)}`);
    return fail(
      'find_occurs_once',
      `find occurs ${hits.length >= 100 ? '100+' : hits.length} times in ${sectionLabel(section)} ` +
        `(line:column ${where.join(', ')}${hits.length > MAX_LISTED ? ', ...' : ''}); extend it with surrounding text until it is unique`,
    );
  }
  const local = hits[0]!;
  const at = section.start + local;
  report.at = at;
  let line = 1 + countNewlines(text, local);
  for (let i = 0; i < section.index; i++) line += work.newlines[i]!;
  report.line = line;
  report.checks.push({ rule: 'find_occurs_once', outcome: 'pass', detail: `once, at line ${line}` });

  // Tokens never span a line break, and sections hold whole lines, so the lines of this
  // section that the edit touches are all that can change.
  const lineStart = text.lastIndexOf('\n', local - 1) + 1;
  const nl = text.indexOf('\n', local + find.length);
  const lineEnd = nl < 0 ? text.length : nl;
  const before = text.slice(lineStart, lineEnd);
  const after = text.slice(lineStart, local) + replace + text.slice(local + find.length, lineEnd);
  const change = tokenChange(before, after);
  const allowed = new Set((op.allow_token_changes ?? []).map((t) => t.trim()));
  const blocked = change.removed.filter((t) => !allowed.has(t.text));
  report.removedTokens = change.removed;
  report.addedTokens = change.added;
  report.allowedUsed = [...new Set(change.removed.filter((t) => allowed.has(t.text)).map((t) => t.text))];
  if (blocked.length > 0) {
    return fail(
      'protected_tokens_kept',
      `the replacement removes protected token(s) ${blocked
        .slice(0, 10)
        .map((t) => `${JSON.stringify(t.text)} (${t.cls.replace('_', ' ')})`)
        .join(
          ', ',
        )}${blocked.length > 10 ? ', ...' : ''}; keep them, or list them in allow_token_changes if the change is intended`,
    );
  }
  report.checks.push({
    rule: 'protected_tokens_kept',
    outcome: 'pass',
    detail:
      change.removed.length === 0
        ? `no protected token removed${change.added.length ? `; ${change.added.length} added` : ''}`
        : `removed only allowed token(s): ${report.allowedUsed.map((t) => JSON.stringify(t)).join(', ')}`,
  });
  if (find === replace)
    report.checks.push({
      rule: 'changes_text',
      outcome: 'info',
      detail: 'find equals replace: the operation changes nothing',
    });

  const patched = text.slice(0, local) + replace + text.slice(local + find.length);
  work.texts[section.index] = patched;
  work.newlines[section.index] = countNewlines(patched);
  work.edits.push({ at, removed: find.length, inserted: replace.length });
  const delta = replace.length - find.length;
  section.end += delta;
  for (let i = section.index + 1; i < work.sections.length; i++) {
    const s = work.sections[i]!;
    s.start += delta;
    s.bodyStart += delta;
    s.end += delta;
  }
  report.ok = true;
  return report;
}
