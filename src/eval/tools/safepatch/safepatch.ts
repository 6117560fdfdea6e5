/**
 * SafePatch: section-scoped Markdown replacement under conservation checks, all or nothing
 * (eval-tools.md, safepatch; docs/safepatch.md).
 */
import { sha256Hex } from '../../../core/canonical-json.js';
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import { checkAndApply, workingCopy, type OperationReport, type WorkingCopy } from './operations.js';
import { MAX_DOCUMENT_CHARS, type SafepatchRequest } from './schema.js';
import { rescanHeadings, type HeadingScan } from './markdown-headings.js';
import { sectionLabel, splitSections, type Section } from './sections.js';
import { windowedDiff } from './unified-diff.js';

export function runSafepatch(request: SafepatchRequest): ReceiptBody {
  const original = request.document;
  const { sections, scan } = splitSections(original);
  const work = workingCopy(original, sections, scan.references);
  const reports = request.operations.map((op, i) => checkAndApply(work, op, i));
  const touched = new Set(reports.filter((r) => r.ok && r.section).map((r) => r.section!.index));
  const bound = touched.size > 0 ? boundCheck(work) : null;
  // A document past the bound is rejected anyway; re-parsing up to 50 x 200,000 characters
  // of it for the conservation checks would only cost time.
  const conservation =
    bound?.outcome === 'pass' ? conservationChecks(original, sections, scan, work, touched, reports) : [];
  const failed = reports.filter((r) => !r.ok);
  const applied =
    failed.length === 0 && bound?.outcome !== 'fail' && conservation.every((c) => c.outcome !== 'fail');
  const patched = applied ? work.texts.join('') : original;

  const decisionPath: DecisionStep[] = [
    {
      rule: 'operations_checked',
      outcome: failed.length === 0 ? 'pass' : 'fail',
      detail: `${reports.length - failed.length} of ${reports.length} operation(s) passed their checks`,
    },
    ...(bound ? [bound] : []),
    ...conservation,
    {
      rule: 'all_or_nothing',
      outcome: applied ? 'pass' : 'fail',
      detail: applied
        ? 'every check held; all operations applied'
        : 'at least one check failed; nothing applied, the document is returned unchanged',
    },
  ];
  const withheldBecause = bound?.outcome === 'fail' ? bound.detail : 'another check failed';
  const items: ItemDecision[] = reports.map((r) => itemFor(r, applied, withheldBecause));
  const before = sha256Hex(original);
  const after = sha256Hex(patched);
  const diff = patched === original ? '' : windowedDiff(original, patched, sections, work.sections, touched);
  const status = applied ? 'APPLIED' : 'REJECTED';
  return {
    status,
    summary: {
      operations: reports.length,
      applied: applied ? reports.length : 0,
      rejected_operations: failed.length,
      sections: sections.length,
      line_endings: work.crlf ? 'crlf' : 'lf',
      characters_before: original.length,
      characters_after: patched.length,
      document_changed: patched !== original,
    },
    decision_path: decisionPath,
    items,
    result: {
      document: patched,
      diff,
      sha256_before: before,
      sha256_after: after,
      reason: request.reason ?? null,
      sections: sections.length,
      headings: sections.length - 1,
    },
    next_action: applied
      ? patched === original
        ? 'Nothing changed: every operation replaced text with itself.'
        : 'Use result.document (hash sha256_after); review result.diff before publishing.'
      : failed.length === 0 && bound?.outcome === 'fail'
        ? `Shorten the replacements so the patched document stays within ${thousands(MAX_DOCUMENT_CHARS)} characters, or split the document, and submit the whole patch again; nothing was applied.`
        : `Fix the rejected operation(s) (${failed.length ? failed.map((r) => itemId(r.index)).join(', ') : 'see decision_path'}) using their reasons and submit the whole patch again; nothing was applied.`,
  };
}

function itemId(index: number): string {
  return `op-${String(index + 1).padStart(2, '0')}`;
}

function itemFor(r: OperationReport, applied: boolean, withheldBecause: string): ItemDecision {
  return {
    item_id: itemId(r.index),
    decision: !r.ok ? 'rejected' : applied ? 'applied' : 'withheld',
    reasons:
      r.ok && !applied ? [`passed its checks, but ${withheldBecause}, so nothing was applied`] : r.reasons,
    target_heading: r.operation.target_heading,
    section: r.section ? sectionLabel(r.section) : null,
    match_line: r.line,
    checks: r.checks,
    protected_tokens: {
      removed: r.removedTokens.map((t) => t.text),
      added: r.addedTokens.map((t) => t.text),
      allowed_and_removed: r.allowedUsed,
    },
  };
}

/** 5000000 -> "5,000,000", without depending on the runtime's locale data. */
function thousands(n: number): string {
  const digits = String(Math.abs(Math.trunc(n)));
  let out = n < 0 ? '-' : '';
  for (let i = 0; i < digits.length; i++)
    out += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
  return out;
}

/**
 * The patched document must respect the same bound as a submitted one, so a receipt's
 * document can always be submitted again (the per-operation `replace` cap alone allows
 * 50 x 200,000 characters).
 */
function boundCheck(work: WorkingCopy): DecisionStep {
  const length = work.texts.reduce((n, t) => n + t.length, 0);
  return length <= MAX_DOCUMENT_CHARS
    ? {
        rule: 'document_within_bound',
        outcome: 'pass',
        detail: `the patched document has ${thousands(length)} characters (bound ${thousands(MAX_DOCUMENT_CHARS)})`,
      }
    : {
        rule: 'document_within_bound',
        outcome: 'fail',
        detail:
          `the patched document would have ${thousands(length)} characters, ` +
          `over the ${thousands(MAX_DOCUMENT_CHARS)}-character document bound`,
      };
}

/**
 * After the operations: the patched document re-parsed must have exactly the original headings
 * (level and text, in order, at the expected shifted positions), and every section no operation
 * targeted must be byte-identical to the original.
 */
function conservationChecks(
  original: string,
  sections: readonly Section[],
  scan: HeadingScan,
  work: WorkingCopy,
  touched: ReadonlySet<number>,
  reports: OperationReport[],
): DecisionStep[] {
  const steps: DecisionStep[] = [];
  const doc = work.texts.join('');
  const now = rescanHeadings(doc, scan, work.edits);
  const expected = work.sections.slice(1);
  let mismatch = -1;
  for (let i = 0; i < Math.max(now.length, expected.length); i++) {
    const a = now[i];
    const e = expected[i]?.heading;
    const eStart = expected[i]?.start;
    if (!a || !e || a.level !== e.level || a.raw !== e.raw || a.start !== eStart) {
      mismatch = i;
      break;
    }
  }
  if (mismatch < 0) {
    steps.push({
      rule: 'headings_unchanged',
      outcome: 'pass',
      detail: `the patched document has the same ${expected.length} top-level heading(s), in order`,
    });
  } else {
    // A change can only disturb headings from its own section up to the next heading.
    const offset = Math.min(
      now[mismatch]?.start ?? doc.length,
      work.sections[mismatch + 1]?.start ?? doc.length,
    );
    const culprit =
      [...touched].map((i) => work.sections[i]!).find((s) => offset >= s.start && offset <= s.end) ?? null;
    const found = now[mismatch];
    const was = expected[mismatch]?.heading;
    const detail =
      `the patched document's headings differ from the original's at heading ${mismatch + 1}: ` +
      (found && was
        ? `found "${'#'.repeat(found.level)} ${found.raw}" where "${'#'.repeat(was.level)} ${was.raw}" was expected`
        : found
          ? `a new heading "${'#'.repeat(found.level)} ${found.raw}" appears`
          : `heading "${was ? '#'.repeat(was.level) + ' ' + was.raw : '?'}" disappeared`) +
      (culprit ? ` (caused by the edit to ${sectionLabel(culprit)})` : '') +
      '; a patch may not add, remove or rename headings (an unclosed code fence or a line of # or === does that)';
    steps.push({ rule: 'headings_unchanged', outcome: 'fail', detail });
    for (const r of reports)
      if (r.ok && culprit && r.section?.index === culprit.index) {
        r.ok = false;
        r.checks.push({ rule: 'headings_unchanged', outcome: 'fail', detail });
        r.reasons.push(detail);
      }
  }
  let differing = 0;
  for (const s of sections) {
    if (touched.has(s.index)) continue;
    const w = work.sections[s.index]!;
    if (
      work.texts[s.index] !== original.slice(s.start, s.end) ||
      doc.slice(w.start, w.end) !== work.texts[s.index]
    )
      differing++;
  }
  steps.push({
    rule: 'other_sections_identical',
    outcome: differing === 0 ? 'pass' : 'fail',
    detail:
      differing === 0
        ? `${sections.length - touched.size} untargeted section(s) byte-identical to the original`
        : `${differing} untargeted section(s) differ from the original`,
  });
  return steps;
}
