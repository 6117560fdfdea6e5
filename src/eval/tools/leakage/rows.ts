/**
 * Reads exam and exposure rows into what the tiers compare: identity, chosen content field,
 * its analysis (normalised form, SHA-256, terms) and the exposure source. Rows that cannot
 * be audited are a 400 naming each row (JSON pointer /exam/<i> or /exposure/<i>).
 */
import { invalidInput, pointer, type FieldError } from '../../../core/errors.js';
import { analyzeText, type AnalyzedText } from '../../text/analyze.js';
import { CONTENT_FIELDS, type ContentField, type ExamRow, type ExposureRow } from './schema.js';

const MAX_LISTED = 20;

export interface AuditRow {
  index: number;
  /** item_id, else id, as text; undefined when the row has neither. */
  id: string | undefined;
  contentField: ContentField | undefined;
  content: string | undefined;
  text: AnalyzedText | undefined;
}

export interface ExposureAuditRow extends AuditRow {
  /** `source`, else `path`, else null. */
  source: string | null;
}

function identityOf(row: ExamRow | ExposureRow): string | undefined {
  const v = row.item_id ?? row.id;
  return v === undefined ? undefined : String(v);
}

function contentOf(row: ExamRow | ExposureRow): [ContentField, string] | undefined {
  for (const f of CONTENT_FIELDS) {
    const v = row[f];
    if (v !== undefined) return [f, v];
  }
  return undefined;
}

class Problems {
  readonly errors: FieldError[] = [];
  count = 0;
  add(e: FieldError): void {
    this.count++;
    if (this.errors.length < MAX_LISTED) this.errors.push(e);
  }
  throwIfAny(what: string): void {
    if (this.count === 0) return;
    throw invalidInput(
      `${this.count} ${what} row(s) cannot be audited` +
        (this.count > MAX_LISTED ? `; the first ${MAX_LISTED} are listed` : '') +
        '. ' +
        (what === 'exam'
          ? `Each exam row needs an identity (item_id or id) and a content field (${CONTENT_FIELDS.join(', ')}), and identities must be unique.`
          : `Each exposure row needs an identity (item_id or id) or a content field (${CONTENT_FIELDS.join(', ')}), or both.`),
      this.errors,
    );
  }
}

function readRow(row: ExamRow | ExposureRow, index: number): AuditRow {
  const id = identityOf(row);
  const c = contentOf(row);
  return {
    index,
    id,
    contentField: c?.[0],
    content: c?.[1],
    text: c ? analyzeText(c[1]) : undefined,
  };
}

/** A content field that normalises to nothing (only spaces or punctuation) carries no content. */
function emptyContent(r: AuditRow): boolean {
  return r.text !== undefined && r.text.normalized === '';
}

export function readExam(exam: readonly ExamRow[]): AuditRow[] {
  const problems = new Problems();
  const firstAt = new Map<string, number>();
  const rows = exam.map((row, i) => {
    const r = readRow(row, i);
    const missing: string[] = [];
    if (r.id === undefined) missing.push('an identity (item_id or id)');
    if (r.contentField === undefined) missing.push(`a content field (${CONTENT_FIELDS.join(', ')})`);
    if (missing.length > 0)
      problems.add({ path: pointer('exam', i), message: `has no ${missing.join(' and no ')}` });
    else if (emptyContent(r))
      problems.add({
        path: pointer('exam', i, r.contentField!),
        message: 'has no words or symbols once spaces and punctuation are normalised',
      });
    if (r.id !== undefined) {
      const first = firstAt.get(r.id);
      if (first !== undefined)
        problems.add({
          path: pointer('exam', i),
          message: `repeats identity "${r.id}" of ${pointer('exam', first)}; exam identities must be unique`,
        });
      else firstAt.set(r.id, i);
    }
    return r;
  });
  problems.throwIfAny('exam');
  return rows;
}

export function readExposure(exposure: readonly ExposureRow[]): ExposureAuditRow[] {
  const problems = new Problems();
  const rows = exposure.map((row, i) => {
    const r = readRow(row, i);
    if (r.id === undefined && r.contentField === undefined)
      problems.add({
        path: pointer('exposure', i),
        message: `has neither an identity (item_id or id) nor a content field (${CONTENT_FIELDS.join(', ')})`,
      });
    else if (emptyContent(r) && r.id === undefined)
      problems.add({
        path: pointer('exposure', i, r.contentField!),
        message:
          'has no words or symbols once spaces and punctuation are normalised, and the row has no identity',
      });
    return { ...r, source: row.source ?? row.path ?? null };
  });
  problems.throwIfAny('exposure');
  return rows;
}
