import { Gauge, type Registry } from 'prom-client';
import type { VerifierPool } from './pool.js';

/** Pool gauges, read at scrape time so they cost nothing between scrapes. */
export function registerPoolMetrics(registry: Registry, pool: VerifierPool): void {
  new Gauge({
    name: 'verifier_pool_threads',
    help: 'Worker threads in the verifier pool.',
    registers: [registry],
    collect() {
      this.set(pool.size);
    },
  });
  new Gauge({
    name: 'verifier_pool_queue_size',
    help: 'Verifier tasks waiting for a free thread.',
    registers: [registry],
    collect() {
      this.set(pool.stats().queued);
    },
  });
  new Gauge({
    name: 'verifier_pool_utilization_ratio',
    help: 'Share of pool capacity in use since the pool started (0 to 1).',
    registers: [registry],
    collect() {
      this.set(pool.stats().utilization);
    },
  });
}
