import type { CounterexampleRequest } from './schema.js';

/**
 * The reference's class: connected, triangle-free, not bipartite. Greedy colouring is not
 * always optimal on it (eval-tools.md's 11-vertex fixture has chi 3, greedy 4): FALSIFIED.
 */
export const counterexampleExample: CounterexampleRequest = {
  expression: 'is_connected and is_triangle_free and not is_bipartite',
  ns: [8, 9, 10, 11],
  restarts: 4,
  seed: 0,
  steps: 800,
};
