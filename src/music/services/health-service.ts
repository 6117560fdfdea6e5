/**
 * Health as the seed words it: `status` healthy/unhealthy, `checks` [{service, healthy,
 * error?}] for the database, the in-memory store and the object store, `timestamp`. Checks run
 * in parallel, each bounded by a timeout.
 */
import type { HealthProbe } from '../repositories/health-repository.js';

export interface HealthCheck {
  service: string;
  healthy: boolean;
  error?: string;
}

export interface HealthReport {
  status: 'healthy' | 'unhealthy';
  checks: HealthCheck[];
  timestamp: string;
}

export interface NamedProbe {
  service: string;
  probe: HealthProbe;
}

function withTimeout(probe: HealthProbe, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([probe(), timeout]).finally(() => clearTimeout(timer));
}

export async function checkHealth(
  probes: readonly NamedProbe[],
  now: Date,
  timeoutMs = 3_000,
): Promise<HealthReport> {
  const checks = await Promise.all(
    probes.map(async ({ service, probe }): Promise<HealthCheck> => {
      try {
        await withTimeout(probe, timeoutMs);
        return { service, healthy: true };
      } catch (err) {
        const message = err instanceof Error ? err.message || err.name : String(err);
        // One line, and never an empty one (some libraries start their messages with a newline).
        const line = message.split('\n').find((l) => l.trim() !== '') ?? 'failed without a message';
        return { service, healthy: false, error: line.trim().slice(0, 500) };
      }
    }),
  );
  return {
    status: checks.every((c) => c.healthy) ? 'healthy' : 'unhealthy',
    checks,
    timestamp: now.toISOString(),
  };
}
