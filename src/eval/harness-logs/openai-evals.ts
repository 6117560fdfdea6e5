/**
 * OpenAI evals JSONL record logs. Fields checked against openai/evals evals/record.py
 * (a `spec` line with eval_name and completion_fns, a `final_report` line, then one event per
 * line: run_id, event_id, sample_id, type, data, created_by, created_at; `record_match`
 * writes type "match" with data.correct).
 */
import { invalidInput } from '../../core/errors.js';
import { asRecord, CohortBuilder, idString, type LogCohort } from './cohort.js';
import type { ReadOptions } from './options.js';
import { lines, parseJsonLine, type LogSource } from './source.js';

export async function readOpenAiEvals(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const builder = new CohortBuilder(source.name, options.keep_inputs);
  let task: string | null = null;
  let model: string | null = null;
  for await (const entry of lines(source)) {
    const row = parseJsonLine(source, entry);
    const spec = asRecord(row.spec);
    if (spec) {
      task = typeof spec.eval_name === 'string' ? spec.eval_name : task;
      const fns = spec.completion_fns;
      model = Array.isArray(fns) && typeof fns[0] === 'string' ? fns.join(',') : model;
      continue;
    }
    if (row.type !== 'match') continue;
    const at = `line ${entry.line}`;
    const id = idString(row.sample_id);
    const data = asRecord(row.data);
    if (id === null) throw invalidInput(`${source.name}: ${at} is a match event without sample_id.`);
    if (typeof data?.correct !== 'boolean')
      throw invalidInput(`${source.name}: ${at} is a match event without a boolean data.correct.`);
    // evals samples once per sample_id; a second match for it is listed as a duplicate.
    builder.add(id, 1, { passed: data.correct, errored: false }, null, at);
  }
  return builder.finish({
    format: 'openai-evals',
    harness: 'OpenAI evals',
    harness_version: null,
    task,
    model,
    measure: 'match.correct',
  });
}
