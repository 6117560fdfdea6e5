import { leakageWorkload } from '../leakage/workload.js';
import { WorkloadRandom } from '../workload-text.js';
import type { InspectRequest } from './schema.js';

/** Leakage's near-limit workload, then a gate over every exam item: the candidate gains. */
export function inspectWorkload(): InspectRequest {
  const rng = new WorkloadRandom(7);
  const audit = leakageWorkload(rng);
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  for (const row of audit.exam) {
    baseline[String(row.item_id)] = rng.chance(0.5);
    candidate[String(row.item_id)] = rng.chance(0.6);
  }
  return {
    ...audit,
    baseline,
    candidate,
    baseline_name: 'baseline',
    candidate_name: 'candidate',
    policy: {
      confidence_alpha: 0.05,
      max_regressions: audit.exam.length,
      min_gains: 1,
      require_retained_probe: false,
    },
  };
}
