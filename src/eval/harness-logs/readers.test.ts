import { strToU8, zipSync } from 'fflate';
import { constants, crc32, createDeflateRaw } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import type { LogCohort } from './cohort.js';
import { detectFormat } from './detect.js';
import * as fx from './fixtures.testing.js';
import { readLog } from './read.js';
import { bufferSource } from './source.js';
import { forEachZipMember } from './zip.js';

const outcomes: fx.Outcome[] = [
  { id: '1', runs: [true, true, false] },
  { id: '2', runs: [false, false, false] },
  { id: '3', runs: [true, 'error', true] },
];

const read = (
  bytes: Uint8Array,
  name = 'log',
  opts: Record<string, unknown> = {},
  chunk?: number,
): Promise<LogCohort> => readLog(bufferSource(name, bytes, chunk), { threshold: 1, ...opts });

async function rejects(p: Promise<unknown>, pattern: RegExp): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toMatch(pattern);
    return err as AppError;
  }
  throw new Error('expected a 400');
}

const runsOf = (c: LogCohort, id: string): string =>
  [...c.items.get(id)!.runs.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, r]) => (r.errored ? 'E' : r.passed ? 'P' : 'F'))
    .join('');

describe('format readers', () => {
  it('reads an Inspect .eval zip member by member, epochs as runs, in small chunks', async () => {
    const c = await read(fx.inspectEval(outcomes), 'a.eval', {}, 97);
    expect(c.format).toBe('inspect-eval');
    expect(c).toMatchObject({
      harness_version: '0.3.140',
      task: 'arith',
      model: 'openai/m1',
      measure: 'match',
      rows: 9,
    });
    expect(runsOf(c, '1')).toBe('PPF');
    expect(runsOf(c, '3')).toBe('PEP');
    expect(c.items.get('1')!.inputHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads an Inspect .json log', async () => {
    const c = await read(fx.inspectJson(outcomes));
    expect(c.format).toBe('inspect-json');
    expect(runsOf(c, '2')).toBe('FFF');
  });

  it('reads lm-evaluation-harness samples, choosing the filter', async () => {
    const one = outcomes.map((o) => ({ ...o, runs: [o.runs[0]!] }));
    const c = await read(fx.lmEvalJsonl(one), 'samples_arith_2024-05-01T10-00-00.123.jsonl');
    expect(c).toMatchObject({ format: 'lm-eval-harness', task: 'arith', measure: 'acc,none' });
    expect(runsOf(c, '1')).toBe('P');
    const two = fx.lmEvalJsonl(one, ['strict-match', 'flexible-extract'], 'exact_match');
    await rejects(read(two), /2 filters \("flexible-extract", "strict-match"\); name one/);
    await rejects(
      read(two, 'x', { filter: 'loose' }),
      /no filter "loose".*"flexible-extract", "strict-match"/,
    );
    await rejects(
      read(two, 'x', { filter: 'strict-match', metric: 'acc' }),
      /no metric "acc".*"exact_match"/,
    );
    expect((await read(two, 'x', { filter: 'strict-match' })).items.size).toBe(3);
  });

  it('reads OpenAI evals match events', async () => {
    const c = await read(fx.openAiEvalsJsonl(outcomes));
    expect(c).toMatchObject({ format: 'openai-evals', task: 'arith.dev.v0', model: 'gpt-x' });
    expect(runsOf(c, '1')).toBe('P');
  });

  it('reads HELM per-instance stats by stat name, trials as runs', async () => {
    await rejects(read(fx.helmStats(outcomes)), /metric.*"exact_match", "num_output_tokens"/);
    const c = await read(fx.helmStats(outcomes), 'x', { metric: 'exact_match' });
    expect(c.format).toBe('helm');
    expect(runsOf(c, '1')).toBe('PPF');
  });

  it('reads DeepEval test runs, errored metrics as errors', async () => {
    const c = await read(
      fx.deepEvalRun([
        { id: 'a', runs: [true] },
        { id: 'b', runs: ['error'] },
      ]),
    );
    expect(c.format).toBe('deepeval');
    expect(runsOf(c, 'b')).toBe('E');
    await rejects(read(fx.deepEvalRun(outcomes), 'x', { metric: 'Faithfulness' }), /"Answer Relevancy"/);
  });

  it('reads promptfoo output, grouping repeats by vars and description, one (provider, prompt) per side', async () => {
    const bytes = fx.promptfooOutput(outcomes, [
      { provider: 'echo', prompt: 'p1' },
      { provider: 'echo', prompt: 'p2' },
    ]);
    await rejects(read(bytes), /2 \(provider, prompt\) pairs/);
    const c = await read(bytes, 'x', { select: 'p2' });
    expect(c.format).toBe('promptfoo');
    expect(c.harness_version).toBe('0.123.1');
    const id = [...c.items.keys()].find((k) => k.startsWith('1 #'))!;
    expect(runsOf(c, id)).toBe('PPF');
  });

  it('reads the gate cohort map, JSONL and CSV forms', async () => {
    expect(runsOf(await read(fx.cohortMap(outcomes)), '1')).toBe('P');
    const csv = await read(fx.cohortCsv(outcomes));
    expect(csv.format).toBe('cohort-csv');
    expect(runsOf(csv, '1')).toBe('PPF');
    const jsonl = await read(
      strToU8('{"item_id":"a","passed":true,"run":1}\n{"item_id":"a","passed":false,"run":2}\n'),
    );
    expect(runsOf(jsonl, 'a')).toBe('PF');
  });

  it('lists duplicate (item, run) rows instead of merging them', async () => {
    const c = await read(strToU8('{"item_id":"a","passed":true}\n{"item_id":"a","passed":false}\n'));
    expect(c.duplicates).toEqual([{ item_id: 'a', run: 1, at: 'line 2' }]);
    expect(runsOf(c, 'a')).toBe('P');
  });
});

describe('bad logs', () => {
  it('names the scorers when the one asked for is not in an Inspect log', async () => {
    await rejects(
      read(fx.inspectEval(outcomes), 'a.eval', { scorer: 'model_graded' }),
      /no scorer "model_graded".*"match"/,
    );
  });

  it('refuses a truncated .eval', async () => {
    const whole = fx.inspectEval(outcomes);
    for (const cut of [whole.length - 10, Math.floor(whole.length / 2), 40])
      await rejects(read(whole.subarray(0, cut), 'a.eval'), /truncated|not a readable zip|corrupt/);
  });

  it('names the JSONL line cut in half', async () => {
    const text = Buffer.from(fx.lmEvalJsonl(outcomes)).toString('utf8');
    const cut = text.slice(0, text.lastIndexOf('{') + 25);
    const err = await rejects(read(strToU8(cut)), /line 3 is not valid JSON.*cut off/);
    expect(err.errors).toEqual([{ path: '/line/3', message: 'is not valid JSON' }]);
  });

  it('says what it saw for an unknown or ambiguous file, and lists the formats', async () => {
    await rejects(
      read(strToU8('hello, world\n')),
      /unknown log format: text starting "hello, world.*Inspect AI \.eval/,
    );
    await rejects(
      read(strToU8('{"foo": 1, "bar": [1]}')),
      /unknown log format: a JSON document starting with the keys foo, bar/,
    );
    await rejects(
      read(strToU8('{"testCases": [], "evalId": "x", "results": {}}')),
      /ambiguous log: it looks like promptfoo and deepeval/,
    );
    await rejects(read(strToU8('')), /an empty file/);
  });

  it('names an Inspect log version it does not know', async () => {
    const doc = JSON.parse(Buffer.from(fx.inspectJson(outcomes)).toString()) as Record<string, unknown>;
    await rejects(
      read(strToU8(JSON.stringify({ ...doc, version: 9 }))),
      /format version 9 is not one this reader knows \(1, 2\)/,
    );
  });

  it('refuses a zip bomb while inflating, with memory bounded', async () => {
    const honest = await zerosZip(512);
    await rejects(
      forEachZipMember(
        bufferSource('b', honest),
        () => true,
        () => {},
      ),
      /declares 536870912 inflated bytes/,
    );
    // The same member with a lying header (1000 bytes) is caught while inflating.
    const bytes = await zerosZip(512, 1000);
    expect(bytes.length).toBeLessThan(4 << 20);
    const before = process.memoryUsage().rss;
    let peak = before;
    const source = bufferSource('bomb.eval', bytes, 64 * 1024);
    const chunks = source.chunks.bind(source);
    source.chunks = async function* () {
      for await (const c of chunks()) {
        peak = Math.max(peak, process.memoryUsage().rss);
        yield c;
      }
    };
    const err = await rejects(
      forEachZipMember(
        source,
        () => true,
        () => {},
      ),
      /zip bomb/,
    );
    expect(err.message).toMatch(/inflates more than 100× its \d+ compressed bytes/);
    expect(peak - before).toBeLessThan(160 << 20);
  });

  it('refuses an archive whose members together pass the total cap', async () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 4; i++)
      files[`samples/${i}_epoch_1.json`] = strToU8(JSON.stringify({ pad: 'x'.repeat(1000) }));
    const limits = { maxMemberBytes: 10_000, maxTotalBytes: 2500, maxRatio: 1000, ratioFloorBytes: 1 << 20 };
    await rejects(
      forEachZipMember(
        bufferSource('z', zipSync(files)),
        () => true,
        () => {},
        limits,
      ),
      /past 2500 inflated bytes/,
    );
  });

  it('detects formats from bytes alone', () => {
    expect(detectFormat(bufferSource('x', fx.inspectEval(outcomes)))).toBe('inspect-eval');
    expect(detectFormat(bufferSource('x', fx.openAiEvalsJsonl(outcomes)))).toBe('openai-evals');
    expect(detectFormat(bufferSource('x', fx.helmStats(outcomes)))).toBe('helm');
  });
});

/** A one-member zip of `mib` MiB of zeros with its sizes in the local header, deflated natively. */
async function zerosZip(mib: number, declared = mib * (1 << 20)): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(1 << 20);
  let crc = 0;
  for (let i = 0; i < mib; i++) {
    crc = crc32(zeros, crc);
    if (!deflate.write(zeros)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  const data = Buffer.concat(out);
  const name = Buffer.from('samples/1_epoch_1.json');
  const size = declared;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4); // version made by
  // The fields both headers hold: [offset in the local header, in the central one, bytes, value].
  const shared: [number, number, 2 | 4, number][] = [
    [4, 6, 2, 20], // version needed
    [8, 10, 2, 8], // method: deflate
    [14, 16, 4, crc >>> 0],
    [18, 20, 4, data.length],
    [22, 24, 4, size],
    [26, 28, 2, name.length],
  ];
  for (const [at, centralAt, bytes, value] of shared) {
    local.writeUIntLE(value, at, bytes);
    central.writeUIntLE(value, centralAt, bytes);
  }
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(46 + name.length, 12);
  eocd.writeUInt32LE(30 + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, eocd]);
}

describe('score thresholds are compared exactly', () => {
  /** One HELM instance whose exact_match stat has only sum and count (its mean is computed). */
  const helm = (sum: number, count: number): Uint8Array =>
    new TextEncoder().encode(
      JSON.stringify([
        {
          instance_id: 'i',
          train_trial_index: 0,
          perturbation: null,
          stats: [{ name: { name: 'exact_match', split: 'test' }, count, sum }],
        },
      ]),
    );
  // 7 / 30 = 0.2333...; its double prints as 0.23333333333333334, above the fraction.
  it.each([
    [0.2333333333333333, 'P'],
    [0.23333333333333334, 'F'],
    [0.7, 'F'],
  ])('HELM sum 7 / count 30 against threshold %s: %s', async (threshold, run) => {
    const c = await read(helm(7, 30), 'x', { metric: 'exact_match', threshold });
    expect(runsOf(c, 'i')).toBe(run);
  });
  it.each([
    [0.6999, 'P'],
    [0.7, 'P'], // exactly at
    [0.7001, 'F'],
  ])('HELM sum 7 / count 10 against threshold %s: %s', async (threshold, run) => {
    const c = await read(helm(7, 10), 'x', { metric: 'exact_match', threshold });
    expect(runsOf(c, 'i')).toBe(run);
  });
});
