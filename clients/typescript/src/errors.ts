import type { Problem } from './types.js';

/** A non-2xx answer: its status, the problem document when there was one, Retry-After if given. */
export class EvalApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly retryAfterMs?: number,
  ) {
    super(problem ? `${status} ${problem.title}: ${problem.detail}` : `HTTP ${status}`);
    this.name = 'EvalApiError';
  }
}

/** No answer within the client's timeout. */
export class EvalTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'EvalTimeoutError';
  }
}
