/**
 * promptfoo output JSON (`promptfoo eval -o out.json`). Fields checked against
 * promptfoo/promptfoo src/types/index.ts (EvaluateResult: promptId, provider {id, label},
 * prompt {label}, testIdx, testCase {vars, description}, success, score, error,
 * failureReason with ResultFailureReason.ERROR = 2; EvaluateSummaryV3: version 3, results[])
 * and src/util/output (the file: evalId, results, config, metadata.promptfooVersion).
 *
 * testIdx is a position that each --repeat run renumbers, so an item is a hash of its vars
 * and description; repeats of one item group under it. A side is one (provider, prompt) pair.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';
import { invalidInput } from '../../core/errors.js';
import { asRecord, CohortBuilder, type LogCohort } from './cohort.js';
import type { ReadOptions } from './options.js';
import { readJsonDocument, type LogSource } from './source.js';

const KNOWN_VERSIONS = new Set([2, 3]);
const ERROR_REASON = 2;

interface Pair {
  provider: string;
  prompt: string;
  promptLabel: string;
}

const pairName = (p: Pair): string => `${p.provider}|${p.prompt}`;

function matches(pair: Pair, select: string): boolean {
  const [a, b] = select.includes('|') ? select.split('|', 2) : [select, undefined];
  if (b !== undefined) return pair.provider === a && (pair.prompt === b || pair.promptLabel === b);
  return pair.provider === a || pair.prompt === a || pair.promptLabel === a;
}

export async function readPromptfoo(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const doc = asRecord(await readJsonDocument(source));
  const summary = asRecord(doc?.results);
  if (!doc || !summary || !Array.isArray(summary.results))
    throw invalidInput(`${source.name}: a promptfoo output file holds results.results[].`);
  const version = summary.version;
  if (typeof version === 'number' && !KNOWN_VERSIONS.has(version))
    throw invalidInput(
      `${source.name}: promptfoo results version ${version} is not one this reader knows (${[...KNOWN_VERSIONS].join(', ')}).`,
    );
  const rows = summary.results as unknown[];
  const pairs = new Map<string, Pair>();
  const pairOf = (r: Record<string, unknown>): Pair => {
    const provider = asRecord(r.provider);
    const prompt = asRecord(r.prompt);
    return {
      provider:
        typeof provider?.id === 'string'
          ? provider.id
          : typeof r.provider === 'string'
            ? r.provider
            : '(none)',
      prompt:
        typeof r.promptId === 'string'
          ? r.promptId
          : typeof r.promptIdx === 'number'
            ? String(r.promptIdx)
            : '(none)',
      promptLabel: typeof prompt?.label === 'string' ? prompt.label : '',
    };
  };
  for (const r of rows) {
    const rec = asRecord(r);
    if (rec) {
      const p = pairOf(rec);
      pairs.set(pairName(p), p);
    }
  }
  const chosen = [...pairs.values()].filter((p) =>
    options.select === undefined ? true : matches(p, options.select),
  );
  if (chosen.length !== 1) {
    const offered = [...pairs.values()].map(
      (p) => `${p.provider}|${p.prompt}${p.promptLabel ? ` (${p.promptLabel})` : ''}`,
    );
    throw invalidInput(
      `${source.name}: ${options.select === undefined ? `the file holds ${pairs.size} (provider, prompt) pairs` : `select "${options.select}" matches ${chosen.length} of its (provider, prompt) pairs`}; ` +
        `choose exactly one with baseline_select/candidate_select ("provider", "prompt id or label", or "provider|prompt"): ${offered.join('; ')}.`,
      [{ path: '/options/select', message: `choose one of: ${offered.join('; ')}` }],
    );
  }
  const pair = chosen[0]!;
  const builder = new CohortBuilder(source.name, options.keep_inputs);
  rows.forEach((r, i) => {
    const rec = asRecord(r);
    if (!rec || pairName(pairOf(rec)) !== pairName(pair)) return;
    const testCase = asRecord(rec.testCase) ?? {};
    const description = typeof testCase.description === 'string' ? testCase.description : null;
    const vars = testCase.vars ?? rec.vars ?? {};
    const hash = createHash('sha256').update(canonicalJson({ description, vars })).digest('hex').slice(0, 16);
    const id = description === null ? `#${hash}` : `${description} #${hash}`;
    if (typeof rec.success !== 'boolean')
      throw invalidInput(`${source.name}: results.results[${i}] has no boolean success.`);
    const errored =
      rec.failureReason === ERROR_REASON ||
      (typeof rec.error === 'string' && rec.error !== '' && !rec.success && rec.failureReason !== 1);
    builder.add(id, builder.nextRun(id), { passed: rec.success, errored }, null, `results.results[${i}]`, {
      description,
      vars,
    });
  });
  const metadata = asRecord(doc.metadata);
  const config = asRecord(doc.config);
  return builder.finish({
    format: 'promptfoo',
    harness: 'promptfoo',
    harness_version: typeof metadata?.promptfooVersion === 'string' ? metadata.promptfooVersion : null,
    task:
      typeof config?.description === 'string'
        ? config.description
        : typeof doc.evalId === 'string'
          ? doc.evalId
          : null,
    model: pair.provider,
    measure: `success (prompt ${pair.promptLabel || pair.prompt})`,
  });
}
