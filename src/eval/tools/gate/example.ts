import type { GateRequest } from './schema.js';

/** Six gains and no regressions over seven items: PASS with one-sided p = 1/64. */
export const gateExample: GateRequest = {
  baseline: {
    'q-01': false,
    'q-02': false,
    'q-03': false,
    'q-04': false,
    'q-05': false,
    'q-06': false,
    'q-07': true,
  },
  candidate: {
    'q-01': true,
    'q-02': true,
    'q-03': true,
    'q-04': true,
    'q-05': true,
    'q-06': true,
    'q-07': true,
  },
  baseline_name: 'model-v1',
  candidate_name: 'model-v2',
  domains: {
    'q-01': 'algebra',
    'q-02': 'algebra',
    'q-03': 'algebra',
    'q-04': 'geometry',
    'q-05': 'geometry',
    'q-06': 'geometry',
    'q-07': 'geometry',
  },
  policy: { confidence_alpha: 0.05, max_regressions: 0, min_gains: 1, require_retained_probe: false },
};
