/**
 * The client: one method per tool (generated from the OpenAPI document: generated/tools.ts), `batch` as an async iterator of answer lines. 429 and 503 are
 * retried after the Retry-After the server gave (plus jitter); every attempt has a timeout.
 */
import { EvalApiError, EvalTimeoutError } from './errors.js';
import { DEFAULT_RETRY, retryAfterMs, retryDelayMs, type RetryPolicy } from './retry.js';
import { TOOL_PATHS, ToolMethods, type ToolId, type ToolRequests } from './generated/tools.js';
import type { BatchLine, BatchResult, Problem, Receipt } from './types.js';

export interface EvalClientOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** Per attempt, until the answer's headers (a batch's lines may stream for longer). Default 60 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** For tests and custom transports; the global fetch by default. */
  fetch?: typeof fetch;
  random?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export class EvalClient extends ToolMethods<CallOptions, Receipt> {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: typeof fetch;
  private readonly random: () => number;

  constructor(options: EvalClientOptions) {
    super();
    this.baseUrl = options.baseUrl.replace(/(?<!\/)\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchFn = options.fetch ?? fetch;
    this.random = options.random ?? Math.random;
  }

  /** Any tool by catalog id; resolves to its receipt, rejects with EvalApiError on a problem. */
  async call<T extends ToolId>(tool: T, request: ToolRequests[T], o: CallOptions = {}): Promise<Receipt> {
    const res = await this.send(TOOL_PATHS[tool], JSON.stringify(request), 'application/json', o.signal);
    const text = await res.text();
    return JSON.parse(text) as Receipt;
  }

  /**
   * Sends the lines as one NDJSON batch and yields each answer line as it arrives, in input
   * order. Leaving the loop early closes the connection, and the server starts no more lines.
   */
  async *batch(lines: Iterable<BatchLine>, o: CallOptions = {}): AsyncGenerator<BatchResult> {
    let body = '';
    for (const line of lines) body += JSON.stringify(line) + '\n';
    const res = await this.send('/api/batch', body, 'application/x-ndjson', o.signal);
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        pending += value;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const text = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (text.trim() !== '') yield JSON.parse(text) as BatchResult;
        }
      }
      if (pending.trim() !== '') yield JSON.parse(pending) as BatchResult;
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }

  /** One request with retries; resolves to a 2xx response whose body is unread. */
  private async send(
    path: string,
    body: string,
    contentType: string,
    signal?: AbortSignal,
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.attempt(path, body, contentType, signal);
      if (res.ok) return res;
      const waitFor = retryAfterMs(res.headers.get('retry-after'));
      const problem = await readProblem(res);
      const retriable = res.status === 429 || res.status === 503;
      if (!retriable || attempt >= this.retry.retries || (waitFor ?? 0) > this.retry.maxWaitMs)
        throw new EvalApiError(res.status, problem, waitFor);
      await sleep(retryDelayMs(attempt, waitFor, this.retry, this.random), signal);
    }
  }

  private async attempt(
    path: string,
    body: string,
    contentType: string,
    signal?: AbortSignal,
  ): Promise<Response> {
    // The timer covers the wait for the answer's headers; it is cleared once they arrive.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    try {
      return await this.fetchFn(this.baseUrl + path, {
        method: 'POST',
        body,
        headers: { 'content-type': contentType, accept: `${contentType}, application/problem+json` },
        signal: combined,
      });
    } catch (err) {
      if (timeout.signal.aborted && !signal?.aborted) throw new EvalTimeoutError(this.timeoutMs);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}

async function readProblem(res: Response): Promise<Problem | undefined> {
  try {
    const text = await res.text();
    return /problem\+json|application\/json/.test(res.headers.get('content-type') ?? '')
      ? (JSON.parse(text) as Problem)
      : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
