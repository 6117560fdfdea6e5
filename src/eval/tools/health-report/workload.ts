import { nearLimit, WorkloadRandom } from '../workload-text.js';
import { MAX_HISTORY, type HealthReportRequest } from './schema.js';

/** Near-limit history: four systems in turn over a quarter as many items, in three domains. */
export function healthReportWorkload(): HealthReportRequest {
  const rng = new WorkloadRandom(7);
  const rows = nearLimit(MAX_HISTORY);
  const items = Math.ceil(rows / 4);
  return {
    history: Array.from({ length: rows }, (_, i) => ({
      item_id: `item-${i % items}`,
      system: `s${Math.floor(i / items)}`,
      passed: rng.chance(0.6),
      domain: ['a', 'b', 'c'][(i % items) % 3]!,
    })),
  };
}
