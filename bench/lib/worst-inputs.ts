/**
 * Near-limit request bodies for the tools whose cost grows with their input, for
 * bench/health-under-load.ts: each fills its schema's largest list (5,000 rows) or, for the
 * counterexample search, its largest sizes, restarts and steps on a claim that holds (no early stop).
 * Seeded; the same bytes every run.
 */
import { lcg } from '../../src/eval/math/lcg.testing.js';

const ROWS = 5000;

function sentence(rnd: () => number, words: number): string {
  return Array.from({ length: words }, () => `w${Math.floor(rnd() * 3000)}`).join(' ');
}

export function counterexampleWorst(): string {
  return JSON.stringify({
    expression: 'is_tree => is_bipartite',
    ns: [12, 12, 12, 12, 12],
    restarts: 6,
    steps: 1500,
  });
}

export function healthWorst(): string {
  const rnd = lcg(3);
  const history = Array.from({ length: ROWS }, (_, i) => ({
    item_id: `item-${i % 1250}`,
    system: `s${Math.floor(i / 1250)}`,
    passed: rnd() < 0.6,
    domain: ['a', 'b', 'c'][i % 3],
  }));
  return JSON.stringify({ history });
}

function examAndExposure(rnd: () => number) {
  const exam = Array.from({ length: ROWS }, (_, i) => ({
    item_id: `item-${i}`,
    prompt: sentence(rnd, 18),
    domain: i % 2 ? 'a' : 'b',
  }));
  const exposure = Array.from({ length: ROWS }, (_, i) =>
    i % 10 === 0
      ? { id: `item-${i}`, content: exam[i]!.prompt, source: 'dump' }
      : i % 10 === 1
        ? { content: `${exam[i]!.prompt} extra words here`, source: 'forum' }
        : { content: sentence(rnd, 18), source: 'web' },
  );
  return { exam, exposure };
}

export function leakageWorst(): string {
  return JSON.stringify(examAndExposure(lcg(5)));
}

export function inspectorWorst(): string {
  const rnd = lcg(9);
  const { exam, exposure } = examAndExposure(rnd);
  const outcomes = (p: number) => Object.fromEntries(exam.map((row) => [row.item_id, rnd() < p]));
  return JSON.stringify({
    exam,
    exposure,
    baseline: outcomes(0.5),
    candidate: outcomes(0.6),
    policy: { confidence_alpha: 0.05, max_regressions: ROWS, min_gains: 1 },
  });
}
