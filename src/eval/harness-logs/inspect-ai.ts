/**
 * Inspect AI logs. Fields checked against UKGovernmentBEIS/inspect_ai:
 * src/inspect_ai/log/_log.py (EvalLog: version, eval.task/model/packages, samples[];
 * EvalSample: id, epoch, input, scores{name: Score.value}, error, limit) and
 * src/inspect_ai/log/_recorders/eval.py (.eval zip members: header.json, _journal/start.json,
 * summaries.json, reductions.json in newer versions, start.json/results.json/summary.json in
 * older ones, and always samples/<id>_epoch_<n>.json).
 */
import { invalidInput } from '../../core/errors.js';
import { asRecord, CohortBuilder, idString, onlyChoice, unknownChoice, type LogCohort } from './cohort.js';
import { inputHash } from './input-hash.js';
import type { ReadOptions } from './options.js';
import { passes } from './score-value.js';
import { readJsonDocument, type LogSource } from './source.js';
import { forEachZipMember } from './zip.js';

/** Log format versions this reader knows (EvalLog.version). */
const KNOWN_VERSIONS = new Set([1, 2]);
const SAMPLE_MEMBER = /^samples\/(.+)_epoch_(\d+)\.json$/;
const HEADER_MEMBERS = new Set(['header.json', '_journal/start.json', 'start.json']);

interface Meta {
  version: number | null;
  task: string | null;
  model: string | null;
  harnessVersion: string | null;
}

function metaOf(doc: Record<string, unknown>, source: string): Meta {
  const version = typeof doc.version === 'number' ? doc.version : null;
  if (version !== null && !KNOWN_VERSIONS.has(version))
    throw invalidInput(
      `${source}: Inspect AI log format version ${version} is not one this reader knows (${[...KNOWN_VERSIONS].join(', ')}).`,
    );
  const evalSpec = asRecord(doc.eval);
  const packages = asRecord(evalSpec?.packages);
  return {
    version,
    task: typeof evalSpec?.task === 'string' ? evalSpec.task : null,
    model: typeof evalSpec?.model === 'string' ? evalSpec.model : null,
    harnessVersion: typeof packages?.inspect_ai === 'string' ? packages.inspect_ai : null,
  };
}

class SampleReader {
  readonly builder: CohortBuilder;
  private scorer: string | undefined;
  private readonly seenScorers = new Set<string>();

  constructor(
    private readonly source: string,
    private readonly options: ReadOptions,
  ) {
    this.builder = new CohortBuilder(source, options.keep_inputs);
    this.scorer = options.scorer;
  }

  add(sample: Record<string, unknown>, at: string, fallback?: { id: string; epoch: number }): void {
    const id = idString(sample.id) ?? fallback?.id;
    const epoch = typeof sample.epoch === 'number' ? sample.epoch : (fallback?.epoch ?? 1);
    if (id === undefined) throw invalidInput(`${this.source}: ${at} has no sample id.`);
    const errored =
      (sample.error !== undefined && sample.error !== null) ||
      (sample.limit !== undefined && sample.limit !== null);
    const scores = asRecord(sample.scores) ?? {};
    for (const name of Object.keys(scores)) this.seenScorers.add(name);
    let passed = false;
    if (Object.keys(scores).length > 0) {
      this.scorer ??= onlyChoice(this.source, 'scorer', Object.keys(scores));
      const score = asRecord(scores[this.scorer]);
      if (!score) throw unknownChoice(this.source, 'scorer', this.scorer, Object.keys(scores));
      passed = passes(score.value, this.options.threshold, `${this.source}: ${at}, scorer ${this.scorer}`);
    } else if (!errored) {
      throw invalidInput(
        `${this.source}: ${at} has no scores and no error; was the log written before scoring?`,
      );
    }
    this.builder.add(
      id,
      epoch,
      { passed: passed && !errored, errored },
      inputHash(sample.input),
      at,
      sample.input,
    );
  }

  get measure(): string | null {
    return this.scorer ?? null;
  }
}

export async function readInspectEval(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const reader = new SampleReader(source.name, options);
  let meta: Meta | null = null;
  await forEachZipMember(
    source,
    (name) => SAMPLE_MEMBER.test(name) || HEADER_MEMBERS.has(name),
    (name, bytes) => {
      const doc = parseMember(source.name, name, bytes);
      const match = SAMPLE_MEMBER.exec(name);
      if (match) reader.add(doc, name, { id: match[1]!, epoch: Number(match[2]) });
      // header.json (written last) wins over the start records.
      else if (name === 'header.json' || meta === null) meta = metaOf(doc, source.name);
    },
  );
  const m = meta as Meta | null;
  return reader.builder.finish({
    format: 'inspect-eval',
    harness: 'Inspect AI',
    harness_version: m?.harnessVersion ?? null,
    task: m?.task ?? null,
    model: m?.model ?? null,
    measure: reader.measure,
  });
}

export async function readInspectJson(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  const doc = asRecord(await readJsonDocument(source));
  if (!doc) throw invalidInput(`${source.name}: an Inspect AI log is a JSON object.`);
  const meta = metaOf(doc, source.name);
  const samples = doc.samples;
  if (!Array.isArray(samples))
    throw invalidInput(
      `${source.name}: the Inspect AI log has no samples[] (was it written with --no-log-samples?).`,
    );
  const reader = new SampleReader(source.name, options);
  samples.forEach((s, i) => {
    const sample = asRecord(s);
    if (!sample) throw invalidInput(`${source.name}: samples[${i}] is not an object.`);
    reader.add(sample, `samples[${i}]`);
  });
  return reader.builder.finish({
    format: 'inspect-json',
    harness: 'Inspect AI',
    harness_version: meta.harnessVersion,
    task: meta.task,
    model: meta.model,
    measure: reader.measure,
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseMember(source: string, name: string, bytes: Uint8Array): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(utf8.decode(bytes));
  } catch (err) {
    throw invalidInput(`${source}: zip member ${name} is not valid JSON (${(err as Error).message}).`);
  }
  const rec = asRecord(doc);
  if (!rec) throw invalidInput(`${source}: zip member ${name} is not a JSON object.`);
  return rec;
}
