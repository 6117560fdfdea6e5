/**
 * Exact verification and description of a reported counterexample. Whatever kernel found it,
 * the graph is re-checked here from scratch with the TypeScript reference before it is shown.
 */
import { compileExpression } from '../../dsl/compile.js';
import { canonicalForm } from '../../dsl/printer.js';
import { cliqueNumber } from '../../graph/cliques.js';
import {
  colourCount,
  colourWith,
  exactColouring,
  greedyColouring,
  greedyOrder,
  isProperColouring,
} from '../../graph/colouring.js';
import { featureRecord, type FeatureRecord } from '../../graph/features.js';
import { edgeList, graphFromMasks, type Graph } from '../../graph/graph.js';
import { toGraph6 } from '../../graph/graph6.js';
import type { Claim } from './claim.js';

export interface Witness {
  n: number;
  m: number;
  edges: [number, number][];
  graph6: string;
  features: FeatureRecord;
  checks: Record<string, unknown>;
}

export class WitnessRejected extends Error {}

function check(ok: boolean, what: string): void {
  if (!ok) throw new WitnessRejected(`internal: the reported graph fails the exact check: ${what}`);
}

/** Builds the witness record, throwing WitnessRejected if the graph is not a counterexample. */
export function verifyWitness(claim: Claim, masks: readonly number[]): Witness {
  const g: Graph = graphFromMasks(masks.length, masks);
  const features = featureRecord(g);
  let checks: Record<string, unknown>;
  if (claim.kind === 'implication') {
    const a = compileExpression(claim.antecedent)(g);
    const b = compileExpression(claim.consequent)(g);
    check(a, `${canonicalForm(claim.antecedent)} does not hold`);
    check(!b, `${canonicalForm(claim.consequent)} holds`);
    checks = {
      antecedent: canonicalForm(claim.antecedent),
      antecedent_holds: a,
      consequent: canonicalForm(claim.consequent),
      consequent_holds: b,
    };
  } else {
    const inClass = compileExpression(claim.cls)(g);
    check(inClass, `${canonicalForm(claim.cls)} does not hold`);
    const greedy = greedyColouring(g);
    const exact = exactColouring(g);
    const greedyProper = isProperColouring(g, greedy);
    const exactProper = isProperColouring(g, exact.colouring);
    // χ is exact: a proper colouring with χ colours exists (shown) and an exhaustive search
    // finds none with χ - 1.
    const fewer = exact.chromaticNumber > 1 ? colourWith(g, exact.chromaticNumber - 1) : null;
    check(greedyProper && exactProper, 'a colouring is not proper');
    check(colourCount(exact.colouring) === exact.chromaticNumber, 'the optimal colouring has the wrong size');
    check(fewer === null, 'a colouring with fewer colours exists');
    check(colourCount(greedy) > exact.chromaticNumber, 'greedy is optimal on it');
    checks = {
      class: canonicalForm(claim.cls),
      in_class: inClass,
      greedy_colouring: {
        order: greedyOrder(g),
        colours: greedy,
        count: colourCount(greedy),
        proper: greedyProper,
      },
      optimal_colouring: {
        colours: exact.colouring,
        count: exact.chromaticNumber,
        proper: exactProper,
      },
      chromatic_number_exact: {
        chromatic_number: exact.chromaticNumber,
        clique_number_lower_bound: cliqueNumber(g),
        colouring_with_fewer_colours_exists: fewer !== null,
        method: `exhaustive DSATUR backtracking finds no proper colouring with ${exact.chromaticNumber - 1} colours`,
      },
      greedy_uses_more_than_chromatic_number: true,
    };
  }
  return {
    n: g.n,
    m: edgeList(g).length,
    edges: edgeList(g),
    graph6: toGraph6(g),
    features,
    checks,
  };
}
