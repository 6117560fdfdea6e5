/**
 * DeepEval test-run JSON. Fields checked against confident-ai/deepeval
 * deepeval/test_run/test_run.py (TestRun: testFile, testCases (alias of test_cases)) and
 * deepeval/test_run/api.py (LLMApiTestCase: name, input, success, metricsData[]: name,
 * success, score, threshold, error).
 */
import { invalidInput } from '../../core/errors.js';
import { asRecord, CohortBuilder, idString, unknownChoice, type LogCohort } from './cohort.js';
import { inputHash } from './input-hash.js';
import type { ReadOptions } from './options.js';
import { readJsonDocument, type LogSource } from './source.js';

export async function readDeepEval(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const doc = asRecord(await readJsonDocument(source));
  if (!doc || !Array.isArray(doc.testCases))
    throw invalidInput(`${source.name}: a DeepEval test run holds testCases[].`);
  const builder = new CohortBuilder(source.name, options.keep_inputs);
  const metricNames = new Set<string>();
  doc.testCases.forEach((t, i) => {
    const tc = asRecord(t);
    const at = `testCases[${i}]`;
    if (!tc) throw invalidInput(`${source.name}: ${at} is not an object.`);
    const id = idString(tc.name);
    if (id === null) throw invalidInput(`${source.name}: ${at} has no name.`);
    const metrics = (Array.isArray(tc.metricsData) ? tc.metricsData : [])
      .map(asRecord)
      .filter((m) => m !== null);
    for (const m of metrics) if (typeof m.name === 'string') metricNames.add(m.name);
    let passed: boolean;
    let errored = metrics.some((m) => typeof m.error === 'string' && m.error !== '');
    if (options.metric !== undefined) {
      const m = metrics.find((x) => x.name === options.metric);
      if (!m)
        throw unknownChoice(
          source.name,
          'metric',
          options.metric,
          metricNames.size ? metricNames : metrics.map((x) => String(x.name)),
        );
      passed = m.success === true;
      errored = typeof m.error === 'string' && m.error !== '';
    } else {
      if (typeof tc.success !== 'boolean')
        throw invalidInput(`${source.name}: ${at} has no boolean success.`);
      passed = tc.success;
    }
    builder.add(id, 1, { passed: passed && !errored, errored }, inputHash(tc.input), at, tc.input);
  });
  return builder.finish({
    format: 'deepeval',
    harness: 'DeepEval',
    harness_version: null,
    task: typeof doc.testFile === 'string' ? doc.testFile : null,
    model: null,
    measure: options.metric ?? 'success',
  });
}
