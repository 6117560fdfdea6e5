/**
 * What an expression claims (eval-tools.md, counterexample): `A => B` claims B on every
 * graph satisfying A; a bare predicate P is a class, and the claim tested is the reference's:
 * greedy colouring (descending degree, ties to the lower index) uses exactly chromatic_number
 * colours on every graph in P.
 */
import type { Expr } from '../../dsl/ast.js';
import { featuresUsed } from '../../dsl/ast.js';
import { canonicalForm } from '../../dsl/printer.js';
import { F } from '../../graph/features.js';

export type Claim =
  { kind: 'implication'; antecedent: Expr; consequent: Expr } | { kind: 'greedy_colouring'; cls: Expr };

export function claimOf(expr: Expr): Claim {
  if (expr.kind === 'implies') return { kind: 'implication', antecedent: expr.left, consequent: expr.right };
  return { kind: 'greedy_colouring', cls: expr };
}

/** The claim in words, with its parts in canonical form. */
export function describeClaim(claim: Claim): string {
  if (claim.kind === 'implication')
    return `every graph satisfying ${canonicalForm(claim.antecedent)} also satisfies ${canonicalForm(claim.consequent)}`;
  return `on every graph satisfying ${canonicalForm(claim.cls)}, greedy colouring (vertices by descending degree, ties to the lower index) uses exactly chromatic_number colours`;
}

/**
 * True when the claim's truth on a graph can depend on how its vertices are labelled: only
 * greedy_colors can (its tie rule follows the labels). Otherwise checking one labelling per
 * isomorphism class covers every graph.
 */
export function labelSensitive(claim: Claim): boolean {
  if (claim.kind === 'greedy_colouring') return true;
  const used = [...featuresUsed(claim.antecedent), ...featuresUsed(claim.consequent)];
  return used.includes(F.greedy_colors);
}
