/* eslint-disable @typescript-eslint/no-explicit-any -- receipts are parsed JSON read for figures */
/**
 * Leakage kernel benchmark (in process: the time a pool worker spends on a
 * request, i.e. parse + validate + run + seal through executeTool). Each figure sits beside a
 * baseline measured in the same run: JSON.parse + schema validation of the same body.
 *
 *   npx tsx bench/leakage.ts      (writes bench/results/leakage.md)
 *
 * Workload: deterministic 20-40 word prompts (Zipf-distributed vocabulary, stop words,
 * numbers); the exposure holds 10% planted duplicates of exam prompts (case, spacing and
 * punctuation changed), 10% near-duplicates (a few words replaced or dropped) and 80%
 * unrelated prompts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { compileValidator } from '../src/core/validation.js';
import { executeTool } from '../src/eval/execute.js';
import { lcg } from '../src/eval/math/lcg.testing.js';
import { LeakageRequest } from '../src/eval/tools/leakage/schema.js';
import { time } from './lib/timing.js';

// ---- deterministic text generation -------------------------------------------------------

const REAL_WORDS = (
  'graph vertex vertices edge edges tree forest cycle path colouring colour chromatic number degree ' +
  'maximum minimum bipartite planar triangle clique independent set matching perfect spanning subgraph ' +
  'induced component connected disconnected diameter girth radius distance shortest longest walk trail ' +
  'hamiltonian eulerian circuit orientation tournament flow network capacity cut partition weight weighted ' +
  'prove show compute determine find count estimate bound upper lower exact optimal algorithm polynomial ' +
  'time complexity reduction instance problem decision greedy heuristic approximation ratio random ' +
  'probability expected variance integer prime divisor sum product sequence series limit function ' +
  'derivative integral matrix eigenvalue determinant rank vector space basis dimension linear equation ' +
  'inequality solution system variable constant coefficient polynomial root factor theorem lemma ' +
  'conjecture counterexample construction family infinite finite order size label labelled unlabelled ' +
  'isomorphic automorphism symmetric regular cubic complete empty star wheel grid hypercube petersen ' +
  'ramsey turan extremal density threshold property monotone closed minor forbidden characterisation'
).split(' ');
const STOP = 'the of a to in and is that for with on as by an be this which at from every each it all'.split(
  ' ',
);
const SYLLABLES =
  'ka lo mi nu pe ra si to vu xe ba co di fa ge hi jo ku le mo na or pi qu re sa ti un ve wo'.split(' ');

/** 6000 content words: the real ones first (most frequent), then pronounceable synthetic ones. */
function vocabulary(size: number): string[] {
  const words = [...REAL_WORDS];
  const rnd = lcg(7);
  const seen = new Set(words);
  while (words.length < size) {
    const n = 2 + Math.floor(rnd() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]!;
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

const VOCAB = vocabulary(6000);
/** Zipf(1.0) cumulative weights over the vocabulary ranks. */
const ZIPF = (() => {
  const cum = new Float64Array(VOCAB.length);
  let s = 0;
  for (let r = 0; r < VOCAB.length; r++) cum[r] = s += 1 / (r + 1);
  for (let r = 0; r < VOCAB.length; r++) cum[r]! /= s;
  return cum;
})();

function zipfWord(rnd: () => number): string {
  const u = rnd();
  let lo = 0;
  let hi = ZIPF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo]!;
}

function prompt(rnd: () => number): string {
  const len = 20 + Math.floor(rnd() * 21);
  const words: string[] = [];
  for (let i = 0; i < len; i++) {
    const u = rnd();
    if (u < 0.35) words.push(STOP[Math.floor(rnd() * STOP.length)]!);
    else if (u < 0.42) words.push(String(Math.floor(rnd() * 1000)));
    else words.push(zipfWord(rnd));
    if (rnd() < 0.06) words[words.length - 1] += ',';
  }
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return words.join(' ') + (rnd() < 0.5 ? '?' : '.');
}

/** Same content: case, spacing and punctuation changed. */
function disguise(text: string, rnd: () => number): string {
  return text
    .split(' ')
    .map((w) => (rnd() < 0.3 ? w.toUpperCase() : w.toLowerCase()))
    .join(rnd() < 0.5 ? '  ' : ' \n')
    .replace(/[?.]$/, '');
}

/** Light rewording: about one word in eight replaced or dropped. */
function reword(text: string, rnd: () => number): string {
  const out: string[] = [];
  for (const w of text.split(' ')) {
    const u = rnd();
    if (u < 0.06) continue;
    out.push(u < 0.12 ? zipfWord(rnd) : w);
  }
  return out.join(' ');
}

interface Workload {
  body: string;
  duplicates: Set<string>;
  near: Set<string>;
  n: number;
}

function leakageWorkload(n: number): Workload {
  const rnd = lcg(1000 + n);
  const exam = Array.from({ length: n }, (_, i) => ({
    item_id: `exam-${i}`,
    prompt: prompt(rnd),
    domain: `d${i % 12}`,
  }));
  const duplicates = new Set<string>();
  const near = new Set<string>();
  const exposure: { prompt: string; source: string }[] = [];
  // Exam items are picked for planting by a seeded shuffle, so plants are spread out.
  const order = exam.map((_, i) => i).sort((a, b) => ((a * 2654435761) % 4093) - ((b * 2654435761) % 4093));
  const tenth = Math.floor(n / 10);
  for (let k = 0; k < n; k++) {
    if (k < tenth) {
      const e = exam[order[k]!]!;
      duplicates.add(e.item_id);
      exposure.push({ prompt: disguise(e.prompt, rnd), source: `dump/${k}` });
    } else if (k < 2 * tenth) {
      const e = exam[order[k]!]!;
      near.add(e.item_id);
      exposure.push({ prompt: reword(e.prompt, rnd), source: `forum/${k}` });
    } else {
      exposure.push({ prompt: prompt(rnd), source: `crawl/${k}` });
    }
  }
  // Interleave so planted rows are not all at the front of the exposure.
  exposure.sort(
    (a, b) =>
      ((a.source.length * 7919 + a.prompt.length) % 97) - ((b.source.length * 7919 + b.prompt.length) % 97),
  );
  return { body: JSON.stringify({ exam, exposure }), duplicates, near, n };
}

// ---- timing ------------------------------------------------------------------------------

const validateLeakage = compileValidator(LeakageRequest);

function runOk(tool: string, body: string): Record<string, any> {
  const out = executeTool(tool, Buffer.from(body));
  if (!out.ok) throw new Error(`${tool}: ${JSON.stringify(out.problem).slice(0, 500)}`);
  return JSON.parse(out.body) as Record<string, any>;
}

const f1 = (x: number): string => x.toFixed(1);
const f2 = (x: number): string => x.toFixed(2);

// ---- leakage ------------------------------------------------------------------------------

interface SizeFigures {
  n: number;
  kib: number;
  baseMs: number;
  toolMs: number;
  recall: number;
  nearFlagged: number;
  unrelatedFlagged: number;
  unrelatedQuarantined: number;
  candidates: number;
  scored: number;
}

function measureLeakage(n: number): SizeFigures {
  const w = leakageWorkload(n);
  const reps = n >= 4000 ? 5 : 7;
  const baseMs = time(() => validateLeakage.assert(JSON.parse(w.body)), 2, reps);
  const bytes = Buffer.from(w.body); // the server hands executeTool raw bytes
  const toolMs = time(() => executeTool('leakage', bytes), 2, reps);
  const receipt = runOk('leakage', w.body);
  let found = 0;
  let nearFlagged = 0;
  let unrelatedFlagged = 0;
  let unrelatedQuarantined = 0;
  for (const item of receipt.items as { item_id: string; decision: string }[]) {
    if (w.duplicates.has(item.item_id)) {
      if (item.decision === 'quarantine') found++;
    } else if (w.near.has(item.item_id)) {
      if (item.decision !== 'clean') nearFlagged++;
    } else if (item.decision === 'review') unrelatedFlagged++;
    else if (item.decision === 'quarantine') unrelatedQuarantined++;
  }
  const sim = receipt.result.tiers.similarity;
  return {
    n,
    kib: w.body.length / 1024,
    baseMs,
    toolMs,
    recall: found / w.duplicates.size,
    nearFlagged: nearFlagged / w.near.size,
    unrelatedFlagged,
    unrelatedQuarantined,
    candidates: sim.candidate_pairs,
    scored: sim.scored_pairs,
  };
}

const exponent = (a: SizeFigures, b: SizeFigures): number =>
  Math.log(b.toolMs / a.toolMs) / Math.log(b.n / a.n);

const sizes = [1000, 2000, 4000, 5000].map(measureLeakage);
const [s1, s2, s4, s5] = sizes as [SizeFigures, SizeFigures, SizeFigures, SizeFigures];

// ---- DSL fingerprints (tier 2 at its most expensive: max_n 5, 1099 graphs) ----------------

const BOOL_FEATURES = [
  'is_connected',
  'is_tree',
  'is_forest',
  'is_bipartite',
  'is_triangle_free',
  'is_regular',
  'is_claw_free',
  'is_eulerian',
  'has_isolated_vertex',
  'has_universal_vertex',
];
/** Numeric features with thresholds that split graphs on at most 5 vertices. */
const NUM_FEATURES: [string, number, number][] = [
  ['n', 2, 5],
  ['m', 1, 8],
  ['max_degree', 1, 4],
  ['min_degree', 0, 3],
  ['num_components', 1, 3],
  ['clique_number', 2, 4],
  ['chromatic_number', 2, 4],
  ['num_triangles', 0, 3],
];

function expression(rnd: () => number): string[] {
  const k = 2 + Math.floor(rnd() * 2);
  const parts: string[] = [];
  for (let i = 0; i < k; i++) {
    if (rnd() < 0.5) {
      parts.push((rnd() < 0.25 ? 'not ' : '') + BOOL_FEATURES[Math.floor(rnd() * BOOL_FEATURES.length)]!);
    } else {
      const [f, lo, hi] = NUM_FEATURES[Math.floor(rnd() * NUM_FEATURES.length)]!;
      parts.push(`${f} ${rnd() < 0.5 ? '<=' : '>='} ${lo + Math.floor(rnd() * (hi - lo + 1))}`);
    }
  }
  return parts;
}

/** n exam x n exposure expressions; exposure row 10k restates exam row 10k with its conjuncts reversed. */
function dslWorkload(n: number): { body: string; commuted: Set<string> } {
  const rnd = lcg(4242 + n);
  const exam = Array.from({ length: n }, (_, i) => ({ item_id: `x-${i}`, parts: expression(rnd) }));
  const commuted = new Set<string>();
  const exposure = Array.from({ length: n }, (_, k) => {
    if (k % 10 === 0) {
      commuted.add(exam[k]!.item_id);
      return { expression: [...exam[k]!.parts].reverse().join(' and ') };
    }
    return { expression: expression(rnd).join(' and ') };
  });
  return {
    body: JSON.stringify({
      exam: exam.map((e) => ({ item_id: e.item_id, expression: e.parts.join(' and ') })),
      exposure,
      fingerprint_max_n: 5,
    }),
    commuted,
  };
}

interface DslFigures {
  n: number;
  baseMs: number;
  toolMs: number;
  tables: number;
  plantedInformative: number;
  plantedFound: number;
  plantedConstant: number;
  otherQuarantined: number;
}

function measureDsl(n: number): DslFigures {
  const w = dslWorkload(n);
  const baseMs = time(() => validateLeakage.assert(JSON.parse(w.body)), 1, 5);
  const bytes = Buffer.from(w.body);
  const toolMs = time(() => executeTool('leakage', bytes), 1, 5);
  const receipt = runOk('leakage', w.body);
  const f: DslFigures = {
    n,
    baseMs,
    toolMs,
    tables: receipt.result.tiers.fingerprint.truth_tables,
    plantedInformative: 0,
    plantedFound: 0,
    plantedConstant: 0,
    otherQuarantined: 0,
  };
  for (const it of receipt.items as { item_id: string; decision: string; reasons: string[] }[]) {
    const constant = it.reasons.some((r) => r.includes('constant fingerprint'));
    if (w.commuted.has(it.item_id)) {
      if (constant) f.plantedConstant++;
      else {
        f.plantedInformative++;
        if (it.decision === 'quarantine') f.plantedFound++;
      }
    } else if (it.decision === 'quarantine') f.otherQuarantined++;
  }
  return f;
}

const dslSizes = [1000, 5000].map(measureDsl);

// ---- report -------------------------------------------------------------------------------

const md = [
  '## Leakage audit (in-process kernel)',
  '',
  'Time of `executeTool` (parse + validate + run + seal: what a pool worker spends per request), median of 5-7 runs after warm-up, ' +
    'beside a baseline measured in the same run: `JSON.parse` + schema validation of the same body. ' +
    'Command: `npx tsx bench/leakage.ts`. ' +
    `Machine: ${os.cpus().length} CPU(s), load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(
        ' / ',
      )} at the end of the run (other work on a shared machine inflates every figure; the ratios less so).`,
  '',
  '### Leakage: N exam x N exposure prompts (20-40 words; 10% planted duplicates, 10% near-duplicates)',
  '',
  '| N | body KiB | parse+validate ms (baseline) | leakage ms | ratio | planted-duplicate recall | near-duplicates flagged | unrelated sent to review | unrelated quarantined | candidate pairs | pairs scored |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...sizes.map(
    (s) =>
      `| ${s.n} | ${s.kib.toFixed(0)} | ${f1(s.baseMs)} | ${f1(s.toolMs)} | ${f2(s.toolMs / s.baseMs)} | ${(100 * s.recall).toFixed(1)}% | ${(100 * s.nearFlagged).toFixed(1)}% | ${s.unrelatedFlagged} | ${s.unrelatedQuarantined} | ${s.candidates} | ${s.scored} |`,
  ),
  '',
  `Growth exponent of leakage time (target <= 1.2): 1000->2000 **${f2(exponent(s1, s2))}**, 2000->4000 **${f2(exponent(s2, s4))}**, ` +
    `1000->4000 **${f2(exponent(s1, s4))}** (baseline 1000->4000: ${f2(Math.log(s4.baseMs / s1.baseMs) / Math.log(4))}).`,
  '',
  `5000 x 5000: **${f1(s5.toolMs)} ms** server time (target < 500 ms), ${f2(s5.toolMs / s5.baseMs)}x the parse+validate baseline.`,
  '',
  '### Tier 2 at its most expensive: DSL expressions, fingerprint_max_n 5 (1099 graphs)',
  '',
  'Every exam and exposure row is a 2-3 conjunct expression; exposure row 10k restates exam row 10k with its conjuncts reversed. ' +
    'Truth tables are evaluated column-wise over all graphs at once. "Other rows quarantined" are genuine behavioural equalities: random conjunctions of a few features often coincide on every graph of at most 5 vertices (e.g. `is_complete and n >= 2` and `is_complete and m >= 1`), which is what the tier is meant to catch.',
  '',
  '| N x N | parse+validate ms (baseline) | leakage ms | ratio | truth tables | planted (informative) quarantined | planted constant (never matched, by design) | other rows quarantined (identical behaviour on <= 5 vertices) |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...dslSizes.map(
    (d) =>
      `| ${d.n} | ${f1(d.baseMs)} | ${f1(d.toolMs)} | ${f2(d.toolMs / d.baseMs)} | ${d.tables} | ${d.plantedFound}/${d.plantedInformative} | ${d.plantedConstant} | ${d.otherQuarantined} |`,
  ),
  '',
].join('\n');

mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/leakage.md', md);
process.stdout.write(md + '\n');
