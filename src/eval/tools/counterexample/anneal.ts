/**
 * The TypeScript search kernel (the reference): simulated annealing over single-edge flips,
 * and exhaustive enumeration. native/src/kernel.cc follows it step for step.
 */
import { forEachLabelledGraph, vertexPairs } from '../../graph/enumerate.js';
import { emptyGraph, popcount } from '../../graph/graph.js';
import { FeatureCache } from '../../graph/features.js';
import { claimScore, ScoreContext } from './score.js';
import { Xoshiro128, expNeg } from './prng.js';
import {
  COOLING,
  START_TEMPERATURE,
  type AnnealOutcome,
  type AnnealParams,
  type ExhaustiveOutcome,
  type Kernel,
  type PreparedClaim,
} from './kernel-types.js';

export function annealTs(prepared: PreparedClaim, { n, steps, state }: AnnealParams): AnnealOutcome {
  const rng = new Xoshiro128(state);
  const pairs = vertexPairs(n);
  const g = emptyGraph(n);
  // Start from G(n, 1/2): the top bit of one draw per vertex pair, in graph6 pair order.
  for (const [a, b] of pairs) {
    if (rng.next() >>> 31) {
      g.adj[a]! |= 1 << b;
      g.adj[b]! |= 1 << a;
    }
  }
  const ctx = new ScoreContext(g);
  const claim = prepared.claim;
  let score = claimScore(claim, ctx);
  let best = score;
  let bestAdj = Array.from(g.adj);
  if (score === 0) return { found: true, bestScore: 0, stepsRun: 0, adj: bestAdj };
  let t = START_TEMPERATURE;
  for (let step = 1; step <= steps; step++) {
    const [a, b] = pairs[rng.next() % pairs.length]!;
    g.adj[a]! ^= 1 << b;
    g.adj[b]! ^= 1 << a;
    ctx.invalidate();
    const s = claimScore(claim, ctx);
    const delta = s - score;
    if (delta <= 0 || rng.uniform() < expNeg(delta / t)) {
      score = s;
      if (s < best) {
        best = s;
        bestAdj = Array.from(g.adj);
        if (s === 0) return { found: true, bestScore: 0, stepsRun: step, adj: bestAdj };
      }
    } else {
      g.adj[a]! ^= 1 << b;
      g.adj[b]! ^= 1 << a;
    }
    t *= COOLING;
  }
  return { found: false, bestScore: best, stepsRun: steps, adj: bestAdj };
}

function degreesNonIncreasing(adj: Uint16Array, n: number): boolean {
  let prev = popcount(adj[0]!);
  for (let v = 1; v < n; v++) {
    const d = popcount(adj[v]!);
    if (d > prev) return false;
    prev = d;
  }
  return true;
}

export function exhaustiveTs(
  prepared: PreparedClaim,
  n: number,
  sortedDegreesOnly: boolean,
): ExhaustiveOutcome {
  const cache = new FeatureCache(emptyGraph(n));
  let evaluated = 0;
  let witness: number[] | null = null;
  const visited = forEachLabelledGraph(n, (g) => {
    if (sortedDegreesOnly && !degreesNonIncreasing(g.adj, n)) return true;
    evaluated++;
    cache.reset(g);
    if (prepared.isCounterexample(cache)) {
      witness = Array.from(g.adj);
      return false;
    }
    return true;
  });
  return { found: witness !== null, visited, evaluated, adj: witness };
}

export const tsKernel: Kernel = { name: 'ts', anneal: annealTs, exhaustive: exhaustiveTs };
