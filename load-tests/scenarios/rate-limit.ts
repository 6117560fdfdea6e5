/**
 * Rate-limit verification at the seed's rates, nginx limit_req burst/nodelay semantics: from an
 * idle client address, exactly burst + 1 of a simultaneous volley are admitted; then, after one
 * emission interval (1/r), exactly one more, and the request right after it is refused. The
 * client address is a fresh X-Forwarded-For per scope, so the target must trust the load
 * generator as a proxy (TRUSTED_PROXIES=127.0.0.1) and run with RATE_LIMITS=on.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { timed } from '../lib/http.js';
import { newTally, type ScenarioResult } from '../lib/report.js';
import { randomClientAddress } from './options.js';

export interface ScopeProbe {
  scope: string;
  ratePerSecond: number;
  burst: number;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** The seed's table, each probed on a path of its scope that needs no account. */
export const SEED_SCOPES: readonly ScopeProbe[] = [
  { scope: 'api', ratePerSecond: 100 / 60, burst: 20, method: 'GET', path: '/api/v1/users/nobody_here' },
  { scope: 'auth', ratePerSecond: 5 / 60, burst: 3, method: 'POST', path: '/api/v1/auth/login', body: {} },
  {
    scope: 'comments',
    ratePerSecond: 20 / 3600,
    burst: 5,
    method: 'GET',
    path: '/api/v1/comments?track_id=x',
  },
];

export async function rateLimits(
  base: string,
  scopes: readonly ScopeProbe[],
  cycles = 2,
): Promise<ScenarioResult> {
  const started = performance.now();
  const failures: string[] = [];
  const notes = [
    '4xx here are the limiter refusing (429) and probe requests the API rejects as invalid (400/404)',
  ];
  const rows = [];
  for (const probe of scopes) {
    const tally = newTally();
    const address = randomClientAddress();
    const send = () =>
      timed(tally, `${base}${probe.path}`, {
        method: probe.method,
        headers: {
          'x-forwarded-for': address,
          ...(probe.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(probe.body ? { body: JSON.stringify(probe.body) } : {}),
      });
    const intervalMs = 1000 / probe.ratePerSecond;
    const volleyStart = performance.now();
    const volley = await Promise.all(Array.from({ length: probe.burst + 4 }, send));
    // A volley slower than one interval (a loaded machine) has earned the limiter's next slot(s).
    const earned = Math.floor((performance.now() - volleyStart) / intervalMs);
    const admitted = volley.filter((a) => a && a.status !== 429).length;
    if (admitted < probe.burst + 1 || admitted > probe.burst + 1 + earned)
      failures.push(
        `${probe.scope}: ${admitted} of a volley of ${probe.burst + 4} admitted, expected burst + 1 = ${probe.burst + 1}` +
          (earned ? ` (up to ${probe.burst + 1 + earned}: the volley took ${earned} interval(s))` : ''),
      );
    else if (earned) notes.push(`${probe.scope}: the volley took longer than 1/r; ${admitted} admitted`);
    const refused = volley.find((a) => a?.status === 429);
    if (refused && !refused.headers.get('retry-after'))
      failures.push(`${probe.scope}: a 429 without Retry-After`);
    // A slow volley can leave an earned slot unused: take it, so each cycle starts exhausted.
    for (let k = 0; k <= earned && failures.length === 0; k++) if ((await send())?.status === 429) break;
    for (let c = 0; c < cycles && failures.length === 0; c++) {
      // The limit admits the next request one emission interval after the last admission.
      await delay(intervalMs + 50);
      const next = await send();
      const nextAt = performance.now();
      const after = await send();
      if (!next || next.status === 429)
        failures.push(
          `${probe.scope}: refused ${Math.round(intervalMs)} ms after the volley (cycle ${c + 1})`,
        );
      if (after?.status !== 429 && performance.now() - nextAt < intervalMs)
        failures.push(`${probe.scope}: admitted twice within one interval (cycle ${c + 1})`);
    }
    rows.push({
      label: `${probe.scope} (${probe.burst}+1, 1 per ${(intervalMs / 1000).toFixed(1)} s)`,
      tally,
    });
  }
  return {
    name: 'rate-limit',
    seconds: (performance.now() - started) / 1000,
    rows,
    failures,
    notes,
  };
}
