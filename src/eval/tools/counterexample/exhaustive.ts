/**
 * The bounded proof: when annealing finds nothing, every graph on 1..k vertices is checked,
 * k the largest the request's budget allows. The budget is a pure function of the request
 * (never of the clock) so that receipts are reproducible: 1024 labelled graphs per annealing
 * step requested, i.e. k = 7 (2,131,019 labelled graphs) for any request of at least 2,082
 * steps in total (the default has 3,200) and k = 6 below.
 */
import { labelledGraphCount } from '../../graph/enumerate.js';
import type { ExhaustiveOutcome, Kernel, PreparedClaim } from './kernel-types.js';

export const GRAPHS_PER_STEP = 1024;

export function exhaustiveBudget(restarts: number, steps: number): number {
  return restarts * steps * GRAPHS_PER_STEP;
}

/** Largest k with sum_{n=1..k} 2^(n(n-1)/2) <= budget (at least 1). */
export function exhaustiveBound(budget: number): number {
  let k = 0;
  let total = 0;
  while (total + labelledGraphCount(k + 1) <= budget) {
    k++;
    total += labelledGraphCount(k);
  }
  return Math.max(k, 1);
}

export interface ExhaustiveReport {
  maxN: number;
  perN: { n: number; labelled_graphs: number; evaluated: number; counterexample: boolean }[];
  graphsVisited: number;
  graphsEvaluated: number;
  witness: { n: number; adj: number[] } | null;
}

export function runExhaustive(
  kernel: Kernel,
  prepared: PreparedClaim,
  maxN: number,
  sortedDegreesOnly: boolean,
): ExhaustiveReport {
  const perN: ExhaustiveReport['perN'] = [];
  let visited = 0;
  let evaluated = 0;
  for (let n = 1; n <= maxN; n++) {
    const out: ExhaustiveOutcome = kernel.exhaustive(prepared, n, sortedDegreesOnly);
    visited += out.visited;
    evaluated += out.evaluated;
    perN.push({ n, labelled_graphs: out.visited, evaluated: out.evaluated, counterexample: out.found });
    if (out.found && out.adj)
      return { maxN, perN, graphsVisited: visited, graphsEvaluated: evaluated, witness: { n, adj: out.adj } };
  }
  return { maxN, perN, graphsVisited: visited, graphsEvaluated: evaluated, witness: null };
}
