/** Turns a parsed expression into a claim both kernels can search. */
import { compileExpression } from '../../dsl/compile.js';
import type { Expr } from '../../dsl/ast.js';
import { F, type FeatureCache } from '../../graph/features.js';
import { claimOf } from './claim.js';
import type { PreparedClaim } from './kernel-types.js';
import { lowerClaim, type LoweredProgram } from './program.js';

export function prepareClaim(expr: Expr): PreparedClaim {
  const claim = claimOf(expr);
  let isCounterexample: (cache: FeatureCache) => boolean;
  if (claim.kind === 'implication') {
    const a = compileExpression(claim.antecedent).onCache;
    const b = compileExpression(claim.consequent).onCache;
    isCounterexample = (c) => a(c) && !b(c);
  } else {
    const p = compileExpression(claim.cls).onCache;
    isCounterexample = (c) => p(c) && c.get(F.greedy_colors) > c.get(F.chromatic_number);
  }
  let lowered: LoweredProgram | null = null;
  return {
    claim,
    isCounterexample,
    lowered: () => (lowered ??= lowerClaim(claim)),
  };
}
