import type { ReplayRequest } from './schema.js';

/** One rewind after a rejected answer, then an accepted one. */
export const replayExample: ReplayRequest = {
  events: [
    { kind: 'control', detail: 'SAVE start', step: 1, source: 'native' },
    {
      kind: 'control',
      detail: 'SKETCH try: every connected triangle-free graph is bipartite',
      step: 2,
      source: 'native',
    },
    {
      kind: 'control',
      detail: 'ANSWER is_connected and is_triangle_free => is_bipartite',
      step: 3,
      source: 'native',
    },
    { kind: 'verifier', detail: 'REJECT: the 5-cycle is a counterexample', step: 4, source: 'native' },
    {
      kind: 'control',
      detail: 'LOAD start :: odd cycles break it; require a forest',
      step: 5,
      source: 'native',
    },
    { kind: 'model', detail: 'forests have no cycles, so they are bipartite', step: 6, source: 'native' },
    { kind: 'control', detail: 'CHECK is_forest => is_bipartite', step: 7, source: 'native' },
    { kind: 'verifier', detail: 'ACCEPT', step: 8, source: 'native' },
    { kind: 'control', detail: 'ANSWER is_forest => is_bipartite', step: 9, source: 'native' },
    { kind: 'verifier', detail: 'ACCEPT', step: 10, source: 'native' },
  ],
  notes: ['session from the bipartiteness exercise'],
};
