import { nearLimit, WorkloadRandom } from '../workload-text.js';
import { MAX_COHORT, type GateRequest } from './schema.js';

/** Near-limit cohorts: the candidate flips one result in ten, three domains; HOLD on regressions. */
export function gateWorkload(): GateRequest {
  const rng = new WorkloadRandom(7);
  const ids = Array.from({ length: nearLimit(MAX_COHORT) }, (_, i) => `item-${i}`);
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  const domains: Record<string, string> = {};
  for (const id of ids) {
    baseline[id] = rng.chance(0.5);
    candidate[id] = rng.chance(0.9) ? baseline[id] : !baseline[id];
    domains[id] = rng.pick(['code', 'math', 'support']);
  }
  return {
    baseline,
    candidate,
    baseline_name: 'baseline',
    candidate_name: 'candidate',
    domains,
    policy: { confidence_alpha: 0.05, max_regressions: 300, min_gains: 1, require_retained_probe: false },
  };
}
