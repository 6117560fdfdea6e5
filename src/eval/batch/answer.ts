/** A batch's answer lines: a receipt verbatim, or a problem in the line's place. */
import { AppError, toProblem, type Problem } from '../../core/errors.js';

export const BATCH_HINT =
  'Each line is {"id": "...", "tool": "<catalog id>", "request": {...}}; GET /api/examples holds a complete valid request for every tool.';

/** A receipt line is this, the receipt's text, then RECEIPT_LINE_END. */
export function receiptLineStart(id: string): string {
  return `{"id":${JSON.stringify(id)},"status":200,"receipt":`;
}

export const RECEIPT_LINE_END = '}\n';

export function receiptLine(id: string, receipt: string): string {
  return receiptLineStart(id) + receipt + RECEIPT_LINE_END;
}

export function problemLine(id: string | null, problem: Problem): string {
  return `{"id":${JSON.stringify(id)},"status":${problem.status},"problem":${JSON.stringify(problem)}}\n`;
}

/** The problem of a line whose run threw: the error's own when it is a known one, else a bare 500. */
export function failureProblem(err: unknown, lineNumber: number): Problem {
  if (err instanceof AppError) return toProblem(err);
  return {
    type: 'urn:problem:internal',
    title: 'Internal error',
    status: 500,
    detail: `The server failed to answer line ${lineNumber}; the other lines are unaffected.`,
    code: 'internal',
  };
}
