/**
 * lm-evaluation-harness `--log_samples` output, samples_<task>_<time>.jsonl. Fields checked
 * against EleutherAI/lm-evaluation-harness lm_eval/evaluator.py (each logged example holds
 * doc_id, doc, target, filter, metrics (the metric names), doc_hash, prompt_hash,
 * target_hash, and every metric's value as a top-level key: `example.update(metrics)`) and
 * lm_eval/loggers/evaluation_tracker.py (the file name). Rows repeat once per filter.
 */
import { invalidInput } from '../../core/errors.js';
import { CohortBuilder, idString, onlyChoice, unknownChoice, type LogCohort } from './cohort.js';
import type { ReadOptions } from './options.js';
import { passes } from './score-value.js';
import { lines, parseJsonLine, type LogSource } from './source.js';

const FILE_NAME = /samples_(.+)_(\d{4}-\d{2}-\d{2}T[\d-]+(?:\.\d+)?)\.jsonl$/;

export async function readLmEval(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const byFilter = new Map<string, CohortBuilder>();
  const metricsSeen = new Set<string>();
  let metric = options.metric;
  for await (const entry of lines(source)) {
    const row = parseJsonLine(source, entry);
    const at = `line ${entry.line}`;
    const id = idString(row.doc_id);
    if (id === null) throw invalidInput(`${source.name}: ${at} has no doc_id.`);
    const filter = typeof row.filter === 'string' ? row.filter : 'none';
    const names = Array.isArray(row.metrics)
      ? row.metrics.filter((m): m is string => typeof m === 'string')
      : Object.keys(row).filter((k) => typeof row[k] === 'number' && k !== 'doc_id');
    for (const n of names) metricsSeen.add(n);
    metric ??= onlyChoice(source.name, 'metric', names);
    if (!Object.hasOwn(row, metric)) throw unknownChoice(source.name, 'metric', metric, names);
    let builder = byFilter.get(filter);
    if (!builder) byFilter.set(filter, (builder = new CohortBuilder(source.name, options.keep_inputs)));
    const hash = typeof row.doc_hash === 'string' ? row.doc_hash : null;
    const passed = passes(row[metric], options.threshold, `${source.name}: ${at}, metric ${metric}`);
    builder.add(id, 1, { passed, errored: false }, hash, at, row.doc);
  }
  const filter = options.filter ?? onlyChoice(source.name, 'filter', byFilter.keys());
  const builder = byFilter.get(filter);
  if (!builder) throw unknownChoice(source.name, 'filter', filter, byFilter.keys());
  const task = FILE_NAME.exec(source.name)?.[1] ?? null;
  return builder.finish({
    format: 'lm-eval-harness',
    harness: 'lm-evaluation-harness',
    harness_version: null,
    task,
    model: null,
    measure: `${metric ?? ''},${filter}`,
  });
}
