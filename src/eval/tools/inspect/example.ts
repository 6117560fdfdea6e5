import { leakageExample } from '../leakage/example.js';
import type { InspectRequest } from './schema.js';

/**
 * The leakage example's exam (plus two fresh items) and exposure: q-001..q-003 are
 * quarantined, q-004 is in review but clean. The candidate gains on all five clean items, so
 * the gate passes (one-sided p = 1/32), while the leaked items never reach it.
 */
export const inspectExample: InspectRequest = {
  exam: [
    ...leakageExample.exam,
    {
      item_id: 'q-007',
      prompt: 'What is the independence number of the cycle on 7 vertices?',
      domain: 'cycles',
    },
    { item_id: 'q-008', expression: 'is_bipartite and num_triangles == 0', domain: 'colouring' },
  ],
  exposure: leakageExample.exposure,
  enable_behavioral_fingerprint: true,
  enable_text_similarity: true,
  fingerprint_max_n: 4,
  similarity_threshold: 0.6,
  baseline: {
    'q-001': true,
    'q-002': true,
    'q-003': true,
    'q-004': false,
    'q-005': false,
    'q-006': false,
    'q-007': false,
    'q-008': false,
  },
  candidate: {
    'q-001': true,
    'q-002': true,
    'q-003': true,
    'q-004': true,
    'q-005': true,
    'q-006': true,
    'q-007': true,
    'q-008': true,
  },
  baseline_name: 'model-v1',
  candidate_name: 'model-v2',
  policy: { confidence_alpha: 0.05, max_regressions: 0, min_gains: 1, require_retained_probe: false },
};
