/**
 * Scenario 4: limits are shared. A client (its own address, given by the trusted proxy's
 * X-Forwarded-For) that sends every request to api1 is refused at some count; another client
 * alternating api1, api2, api1, … is refused at the same count (the buckets live in Redis).
 */
import { expect } from 'vitest';
import { musicUrl, type Cluster } from './cluster.js';
import { record } from './results.js';

interface Scope {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

const SCOPES: Scope[] = [
  {
    name: 'auth',
    method: 'POST',
    path: '/api/v1/auth/login',
    // A login name per client: issue 45 also counts failed logins per account, across addresses.
    body: '{"login":"LOGIN","password":"y"}',
  },
  // Posting (401 without a token, counted first); reading comments is the api scope's.
  { name: 'comments', method: 'POST', path: '/api/v1/comments', body: '{"track_id":"x","body":"hi"}' },
];

/** Requests until the first 429: its 1-based number, with the Retry-After it carried. */
async function refusedAt(
  scope: Scope,
  address: string,
  hosts: ('api1' | 'api2')[],
): Promise<{ n: number; retryAfter: string | null }> {
  for (let n = 1; n <= 60; n++) {
    const host = hosts[(n - 1) % hosts.length]!;
    const res = await fetch(`${musicUrl(host)}${scope.path}`, {
      method: scope.method,
      headers: { 'x-forwarded-for': address, ...(scope.body ? { 'content-type': 'application/json' } : {}) },
      ...(scope.body ? { body: scope.body.replace('LOGIN', `nobody-${address}`) } : {}),
    });
    await res.arrayBuffer();
    if (res.status === 429) return { n, retryAfter: res.headers.get('retry-after') };
  }
  throw new Error(`${scope.name}: no 429 within 60 requests`);
}

export async function limitsShared(_cluster: Cluster): Promise<void> {
  const rows: string[] = [];
  for (const [i, scope] of SCOPES.entries()) {
    const one = await refusedAt(scope, `192.0.2.${10 + i}`, ['api1']);
    const alternating = await refusedAt(scope, `192.0.2.${20 + i}`, ['api1', 'api2']);
    expect(alternating.n, scope.name).toBe(one.n);
    expect(alternating.retryAfter, scope.name).toBeTruthy();
    rows.push(
      `| ${scope.name} | ${scope.method} ${scope.path} | ${one.n} | ${alternating.n} | ${alternating.retryAfter} |`,
    );
  }
  record('4. Limits are shared', [
    `Each client its own address (X-Forwarded-For from a trusted proxy); requests straight to the API hosts.`,
    '',
    '| scope | request | refused at (api1 only) | refused at (api1, api2 alternating) | Retry-After (s) |',
    '| ----- | ------- | ---------------------: | ----------------------------------: | --------------: |',
    ...rows,
  ]);
}
