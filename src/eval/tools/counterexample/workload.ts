import { nearLimit } from '../workload-text.js';
import {
  MAX_EXPRESSION_CHARS,
  MAX_N,
  MAX_RESTARTS,
  MAX_SIZES,
  MAX_STEPS,
  type CounterexampleRequest,
} from './schema.js';

/** Consequences of the class below on graphs of at most twelve vertices: they keep it the same. */
const IMPLIED = [
  'num_triangles == 0',
  'clique_number <= 2',
  'girth >= 4',
  'num_components == 1',
  'diameter <= 11',
  'n >= 5',
  'm >= 5',
];

/**
 * The example's falsifiable class, lengthened to near the expression limit by clauses it implies
 * (each one more test per graph), searched at the largest bounds: every size, restart and step.
 */
export function counterexampleWorkload(): CounterexampleRequest {
  const clauses = ['is_connected and is_triangle_free and not is_bipartite', ...IMPLIED];
  for (let k = 0; clauses.join(' and ').length < nearLimit(MAX_EXPRESSION_CHARS); k++)
    clauses.push(`max_degree <= ${11 + (k % 9)}`);
  return {
    expression: clauses.join(' and '),
    ns: Array.from({ length: MAX_SIZES }, (_, i) => MAX_N - i),
    restarts: MAX_RESTARTS,
    seed: 0,
    steps: MAX_STEPS,
  };
}
