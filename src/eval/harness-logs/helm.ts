/**
 * HELM per_instance_stats.json. Fields checked against stanford-crfm/helm
 * src/helm/benchmark/metrics/metric.py (PerInstanceStats: instance_id, perturbation
 * (PerturbationDescription or null), train_trial_index, stats[]) and
 * src/helm/benchmark/metrics/statistic.py (Stat: name (MetricName: name, split, ...), count,
 * sum, mean). A perturbed instance is its own item, `<instance_id>@<perturbation name>`.
 */
import { invalidInput } from '../../core/errors.js';
import { asRecord, CohortBuilder, idString, onlyChoice, unknownChoice, type LogCohort } from './cohort.js';
import type { ReadOptions } from './options.js';
import { meanPassesAgainst, passes } from './score-value.js';
import { readJsonDocument, type LogSource } from './source.js';

export async function readHelm(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const doc = await readJsonDocument(source);
  if (!Array.isArray(doc))
    throw invalidInput(`${source.name}: HELM per_instance_stats.json is a JSON array.`);
  const names = new Set<string>();
  const rows = doc.map((r, i) => {
    const row = asRecord(r);
    if (!row || !Array.isArray(row.stats))
      throw invalidInput(`${source.name}: [${i}] is not a per-instance stats object.`);
    const stats = new Map<string, Record<string, unknown>>();
    for (const s of row.stats) {
      const stat = asRecord(s);
      const name = asRecord(stat?.name)?.name;
      if (stat && typeof name === 'string') {
        names.add(name);
        stats.set(name, stat);
      }
    }
    return { row, stats };
  });
  const metric = options.metric ?? onlyChoice(source.name, 'metric', names);
  if (!names.has(metric)) throw unknownChoice(source.name, 'metric', metric, names);
  const builder = new CohortBuilder(source.name, options.keep_inputs);
  const meanPasses = meanPassesAgainst(options.threshold);
  rows.forEach(({ row, stats }, i) => {
    const at = `[${i}]`;
    const instance = idString(row.instance_id);
    if (instance === null) throw invalidInput(`${source.name}: ${at} has no instance_id.`);
    const perturbation = asRecord(row.perturbation)?.name;
    const id = typeof perturbation === 'string' ? `${instance}@${perturbation}` : instance;
    const trial = typeof row.train_trial_index === 'number' ? row.train_trial_index : 0;
    const stat = stats.get(metric);
    if (!stat) throw unknownChoice(source.name, 'metric', metric, stats.keys());
    let passed: boolean;
    if (typeof stat.mean === 'number') passed = passes(stat.mean, options.threshold, `${source.name}: ${at}`);
    else if (
      typeof stat.sum === 'number' &&
      Number.isFinite(stat.sum) &&
      typeof stat.count === 'number' &&
      Number.isFinite(stat.count) &&
      stat.count > 0
    )
      passed = meanPasses(stat.sum, stat.count);
    else throw invalidInput(`${source.name}: ${at} stat ${metric} has neither mean nor sum/count.`);
    builder.add(id, trial, { passed, errored: false }, null, at);
  });
  return builder.finish({
    format: 'helm',
    harness: 'HELM',
    harness_version: null,
    task: null,
    model: null,
    measure: metric,
  });
}
