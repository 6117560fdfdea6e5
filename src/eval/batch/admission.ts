/**
 * Batch lines against the rate limit: the client's bucket in the `tools` scope, the one its
 * single calls use, charged per line. Each ask takes as many lines as the bucket holds now (up to
 * the lines wanted), so lines run as they fall due rather than in groups; when the bucket is
 * empty the stream waits the time the limiter names for the next line rather than failing, so a
 * long batch runs at the client's rate. An MCP batch's `tools/call`s are lines too (`atMost`:
 * its answer is one JSON document, so the calls past the bucket are refused, not waited for).
 * A limiter that fails (Redis down) admits the rest of the batch, as the per-request limiter does.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import type { AppError } from '../../core/errors.js';
import { retryAfterSeconds } from '../../core/rate-limit/gcra.js';
import { limitKey, type RateLimitScope } from '../../core/rate-limit/plugin.js';
import type { RateLimitStore } from '../../core/rate-limit/store.js';
import type { LineAdmission } from './stream.js';
import { batchRateLimited } from '../errors.js';

export interface BatchLimiter {
  store: RateLimitStore;
  scope: RateLimitScope;
  clientAddress: (request: FastifyRequest) => string;
}

export type Grant = { allowed: true; lines: number } | { allowed: false; retryAfterMs: number };

export interface RequestAdmission extends LineAdmission {
  /** One attempt, no waiting. */
  now(cost: number): Promise<Grant>;
  /** As many of `cost` lines as the bucket holds now, no waiting; the refusal of the rest. */
  atMost: (cost: number) => Promise<{ lines: number; refused?: AppError }>;
  limited(retryAfterMs: number): AppError;
}

export function lineAdmission(limiter: BatchLimiter, request: FastifyRequest): RequestAdmission {
  const key = limitKey(limiter.scope, limiter.clientAddress(request));
  let unlimited = false;
  const now = async (cost: number): Promise<Grant> => {
    if (unlimited) return { allowed: true, lines: cost };
    try {
      const r = await limiter.store.takeUpTo(key, limiter.scope, Math.max(1, cost));
      return r.granted > 0
        ? { allowed: true, lines: r.granted }
        : { allowed: false, retryAfterMs: r.retryAfterMs };
    } catch (err) {
      unlimited = true;
      request.log.error(
        { err, scope: limiter.scope.name },
        'rate limiter unavailable; batch lines admitted without a limit',
      );
      return { allowed: true, lines: cost };
    }
  };
  const admit = async (cost: number, signal: AbortSignal): Promise<number> => {
    for (;;) {
      const grant = await now(cost);
      if (grant.allowed) return grant.lines;
      await delay(Math.ceil(grant.retryAfterMs), undefined, { signal });
    }
  };
  const limited = (retryAfterMs: number) =>
    batchRateLimited(limiter.scope.name, retryAfterSeconds(retryAfterMs));
  const atMost = async (cost: number): Promise<{ lines: number; refused?: AppError }> => {
    let lines = 0;
    // Asking again after a short grant learns when the next line falls due (or takes what fell due since).
    while (lines < cost) {
      const grant = await now(cost - lines);
      if (!grant.allowed) return { lines, refused: limited(grant.retryAfterMs) };
      lines += grant.lines;
    }
    return { lines };
  };
  return Object.assign(admit, { now, atMost, limited });
}
