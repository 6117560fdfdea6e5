/**
 * The declared exposure for clean-versus-full (`--exposure FILE`, the `exposure` part, the MCP
 * argument): the leakage tool's exposure rows and tier options, as a JSON array of rows, a
 * JSON object `{exposure: [...], <tier options>}`, or JSONL with one row per line.
 */
import { Type, type Static } from 'typebox';
import { invalidInput } from '../../core/errors.js';
import { compileValidator } from '../../core/validation.js';
import { leakageFields } from '../tools/leakage/schema.js';

const {
  exposure,
  enable_behavioral_fingerprint,
  enable_text_similarity,
  fingerprint_max_n,
  similarity_threshold,
} = leakageFields;

export const ExposureSpec = Type.Object(
  {
    exposure: { ...exposure, minItems: 1, description: 'Declared exposure; 1 to 5000 rows' },
    enable_behavioral_fingerprint,
    enable_text_similarity,
    fingerprint_max_n,
    similarity_threshold,
  },
  { additionalProperties: false },
);

export type ExposureSpec = Static<typeof ExposureSpec>;

const validate = compileValidator(ExposureSpec);

const FORMS =
  'a JSON array of exposure rows, a JSON object {"exposure": [...], tier options}, or JSONL with one row per line';

/** The exposure file's text -> the validated spec; a 400 names the line, row or field at fault. */
export function parseExposure(text: string, name = 'exposure'): ExposureSpec {
  if (text.trim() === '') throw invalidInput(`The ${name} file is empty; send ${FORMS}.`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    doc = jsonLines(text, name, (err as Error).message);
  }
  // A JSON object without `exposure` is one row (JSONL of one line).
  if (Array.isArray(doc)) doc = { exposure: doc };
  else if (typeof doc === 'object' && doc !== null && !Object.hasOwn(doc, 'exposure'))
    doc = { exposure: [doc] };
  if (typeof doc !== 'object' || doc === null)
    throw invalidInput(`The ${name} file holds ${JSON.stringify(doc)}; send ${FORMS}.`);
  return validate.assert(doc, `${name} file`);
}

/** JSONL, or a 400 that says the file is neither JSON nor JSONL (naming the line). */
function jsonLines(text: string, name: string, jsonError: string): unknown[] {
  const rows: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      rows.push(JSON.parse(line));
    } catch (err) {
      throw invalidInput(
        `The ${name} file is neither JSON (${jsonError}) nor JSONL: line ${i + 1} is not valid JSON (${(err as Error).message}).`,
        [{ path: `/${name}/line/${i + 1}`, message: 'is not valid JSON' }],
      );
    }
  }
  return rows;
}
