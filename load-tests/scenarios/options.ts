/** Bounds every scenario takes: time, parallel loops, an iteration budget, and client addresses. */
import { randomInt } from 'node:crypto';

export interface LoadOptions {
  seconds: number;
  connections: number;
  maxIterations: number;
  /**
   * X-Forwarded-For for a request. Against a stack that trusts the load generator as a proxy,
   * every iteration looks like a fresh client, so traffic scenarios measure the service, not
   * its rate limits (the rate-limit scenario checks those on its own addresses).
   */
  clientAddress: () => string;
}

export function randomClientAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`;
}

export function loadOptions(env: NodeJS.ProcessEnv): LoadOptions {
  const int = (name: string, fallback: number): number => {
    const n = Number(env[name] ?? fallback);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0`);
    return n;
  };
  return {
    seconds: int('LOAD_SECONDS', 20),
    connections: int('LOAD_CONNECTIONS', 8),
    maxIterations: int('LOAD_MAX_ITERATIONS', 1_000_000),
    clientAddress: randomClientAddress,
  };
}
