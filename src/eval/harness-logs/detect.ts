/**
 * Which harness wrote a file, from its first bytes: a zip is an Inspect .eval; text is told
 * apart by the keys it starts with. Unknown or ambiguous files are a 400 naming what was seen
 * and the formats accepted.
 */
import { invalidInput } from '../../core/errors.js';
import type { FormatId } from './cohort.js';
import type { LogSource } from './source.js';

export const ACCEPTED_FORMATS =
  'Inspect AI .eval (zip) or .json log, lm-evaluation-harness samples_<task>_<time>.jsonl, promptfoo output JSON, ' +
  'OpenAI evals record JSONL, HELM per_instance_stats.json, DeepEval test-run JSON, or a gate cohort ' +
  '(a {item_id: boolean} map, or JSONL/CSV of item_id,passed[,run])';

const has = (text: string, ...keys: string[]): boolean => keys.every((k) => text.includes(`"${k}"`));

function firstLine(text: string): { line: string; rest: string } {
  const nl = text.indexOf('\n');
  return nl < 0 ? { line: text, rest: '' } : { line: text.slice(0, nl), rest: text.slice(nl + 1) };
}

function jsonlFormat(row: Record<string, unknown>): FormatId[] {
  const found: FormatId[] = [];
  if ('doc_id' in row && ('filter' in row || 'doc_hash' in row || 'metrics' in row))
    found.push('lm-eval-harness');
  if ('spec' in row || 'final_report' in row || ('sample_id' in row && 'type' in row && 'run_id' in row))
    found.push('openai-evals');
  if ('item_id' in row && 'passed' in row) found.push('cohort-jsonl');
  return found;
}

function documentFormats(head: string): FormatId[] {
  const found: FormatId[] = [];
  if (head.startsWith('[')) {
    if (has(head, 'instance_id', 'train_trial_index') || has(head, 'instance_id', 'stats'))
      found.push('helm');
    return found;
  }
  if (has(head, 'evalId') || (has(head, 'results', 'promptId') && has(head, 'testCase')))
    found.push('promptfoo');
  if (
    has(head, 'eval', 'samples') ||
    (has(head, 'eval', 'version') && (has(head, 'plan') || has(head, 'status')))
  )
    found.push('inspect-json');
  if (has(head, 'testCases')) found.push('deepeval');
  if (/^\{\s*"(?:[^"\\]|\\.)*"\s*:\s*(?:true|false)\s*[,}]/.test(head)) found.push('cohort-map');
  return found;
}

export function detectFormat(source: LogSource): FormatId {
  const h = source.head;
  if (
    h.length >= 4 &&
    h[0] === 0x50 &&
    h[1] === 0x4b &&
    (h[2] === 0x03 || h[2] === 0x05) &&
    (h[3] === 0x04 || h[3] === 0x06)
  )
    return 'inspect-eval';
  const text = Buffer.from(h)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  let found: FormatId[] = [];
  let seen: string;
  if (text.startsWith('{') || text.startsWith('[')) {
    const { line, rest } = firstLine(text);
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      row = undefined;
    }
    const rec =
      typeof row === 'object' && row !== null && !Array.isArray(row)
        ? (row as Record<string, unknown>)
        : null;
    if (rec && (rest.trimStart().startsWith('{') || jsonlFormat(rec).length > 0)) {
      found = jsonlFormat(rec);
      seen = `JSON lines whose first line has the keys ${Object.keys(rec).slice(0, 12).join(', ') || '(none)'}`;
      if (found.length === 0 && rest.trim() === '') found = documentFormats(text);
    } else {
      found = documentFormats(text);
      const keys = [...text.slice(0, 4096).matchAll(/"([^"\\]{1,40})"\s*:/g)].slice(0, 12).map((m) => m[1]);
      seen = `a JSON ${text.startsWith('[') ? 'array' : 'document'} starting with the keys ${[...new Set(keys)].join(', ') || '(none)'}`;
    }
  } else if (/^"?item_id"?\s*,\s*"?passed"?/i.test(text)) {
    return 'cohort-csv';
  } else {
    const printable = text.slice(0, 40).replace(/[^\x20-\x7e]/g, '?');
    seen = text.length === 0 ? 'an empty file' : `text starting ${JSON.stringify(printable)}`;
  }
  if (found.length === 1) return found[0]!;
  throw invalidInput(
    found.length > 1
      ? `${source.name}: ambiguous log: it looks like ${found.join(' and ')}; accepted formats: ${ACCEPTED_FORMATS}.`
      : `${source.name}: unknown log format: ${seen}; accepted formats: ${ACCEPTED_FORMATS}.`,
  );
}
