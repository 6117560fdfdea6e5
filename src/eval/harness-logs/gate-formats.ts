/** The gate's own forms: a cohort map `{item_id: boolean}`, and JSONL or CSV of item_id,passed[,run]. */
import { invalidInput } from '../../core/errors.js';
import { asRecord, CohortBuilder, idString, type LogCohort } from './cohort.js';
import type { ReadOptions } from './options.js';
import { lines, parseJsonLine, readJsonDocument, type LogSource } from './source.js';

const meta = { harness: 'gate cohort', harness_version: null, task: null, model: null, measure: 'passed' };

export async function readCohortMap(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const doc = asRecord(await readJsonDocument(source));
  if (!doc) throw invalidInput(`${source.name}: a cohort map is a JSON object of item_id -> boolean.`);
  const builder = new CohortBuilder(source.name, options.keep_inputs);
  for (const [id, v] of Object.entries(doc)) {
    if (typeof v !== 'boolean')
      throw invalidInput(`${source.name}: item "${id}" is ${JSON.stringify(v)}, not a boolean.`);
    builder.add(id, 1, { passed: v, errored: false }, null, `/${id}`);
  }
  return builder.finish({ format: 'cohort-map', ...meta });
}

function boolOf(v: unknown, where: string): boolean {
  if (typeof v === 'boolean') return v;
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw invalidInput(`${where}: passed is ${JSON.stringify(v)}; use true/false or 1/0.`);
}

function runOf(v: unknown, where: string): number {
  if (v === undefined || v === null || v === '') return 1;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw invalidInput(`${where}: run is ${JSON.stringify(v)}; use a non-negative integer.`);
  return n;
}

export async function readCohortJsonl(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const builder = new CohortBuilder(source.name, options.keep_inputs);
  for await (const entry of lines(source)) {
    const row = parseJsonLine(source, entry);
    const where = `${source.name}: line ${entry.line}`;
    const id = idString(row.item_id);
    if (id === null) throw invalidInput(`${where}: no item_id.`);
    const errored = row.error !== undefined && row.error !== null && row.error !== false;
    builder.add(
      id,
      runOf(row.run, where),
      { passed: boolOf(row.passed, where), errored },
      typeof row.input_hash === 'string' ? row.input_hash : null,
      `line ${entry.line}`,
      row.input,
    );
  }
  return builder.finish({ format: 'cohort-jsonl', ...meta });
}

/** One CSV record's fields (RFC 4180 quoting; a field cannot span lines here). */
export function csvFields(text: string, where: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= text.length) {
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw invalidInput(`${where}: an unterminated quoted field.`);
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(value);
      if (i < text.length && text[i] !== ',') throw invalidInput(`${where}: text after a quoted field.`);
      i++;
    } else {
      const c = text.indexOf(',', i);
      const end = c < 0 ? text.length : c;
      out.push(text.slice(i, end).trim());
      i = end + 1;
    }
  }
  return out;
}

export async function readCohortCsv(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const builder = new CohortBuilder(source.name, options.keep_inputs);
  let columns: string[] | null = null;
  for await (const entry of lines(source)) {
    const where = `${source.name}: line ${entry.line}`;
    const fields = csvFields(entry.text, where);
    if (!columns) {
      columns = fields.map((f) => f.toLowerCase());
      if (columns[0] !== 'item_id' || columns[1] !== 'passed')
        throw invalidInput(
          `${where}: the header must be item_id,passed[,run]; it is ${entry.text.slice(0, 80)}.`,
        );
      continue;
    }
    if (fields.length !== columns.length)
      throw invalidInput(
        `${where}: ${fields.length} fields where the header has ${columns.length}${entry.last ? '; the last line looks cut off' : ''}.`,
      );
    const row = Object.fromEntries(columns.map((c, i) => [c, fields[i]]));
    builder.add(
      fields[0]!,
      runOf(row.run, where),
      { passed: boolOf(row.passed, where), errored: row.error === 'true' || row.error === '1' },
      row.input_hash || null,
      `line ${entry.line}`,
      row.input,
    );
  }
  return builder.finish({ format: 'cohort-csv', ...meta });
}
