/** Retries and timeouts against a test server that records when each attempt arrived. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { EvalApiError, EvalClient, EvalTimeoutError, retryAfterMs } from '../dist/index.js';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** A server answering the n-th request with answers[n] (the last one after that). */
async function testServer(
  answers: Answer[],
): Promise<{ url: string; arrivals: number[]; close(): Promise<void> }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    req.on('end', () => answers[Math.min(arrivals.length - 1, answers.length - 1)]!(req, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const problem =
  (status: number, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
    res.end(
      JSON.stringify({ type: 'urn:problem:x', title: 'Limited', status, detail: 'retry later', code: 'x' }),
    );
  };
const receipt: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"receipt_version":1,"tool":"gate","status":"PASS"}');
};
const gateRequest = { baseline: { a: false }, candidate: { a: true } };

describe('retries', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });

  it('retries a 429 after the Retry-After it was given, plus jitter, never before', async () => {
    const srv = await testServer([problem(429, { 'retry-after': '1' }), receipt]);
    servers.push(srv);
    // random() = 0.5: jitter of exactly half of jitterMs (200 ms), so the expected gap is known.
    const client = new EvalClient({ baseUrl: srv.url, retry: { jitterMs: 400 }, random: () => 0.5 });
    const answer = await client.gate(gateRequest);
    assert.equal(answer.status, 'PASS');
    assert.equal(srv.arrivals.length, 2);
    const gap = srv.arrivals[1]! - srv.arrivals[0]!;
    assert.ok(
      gap >= 1200,
      `second attempt ${gap.toFixed(0)} ms after the first; Retry-After 1 s + 200 ms jitter`,
    );
    assert.ok(gap < 1200 + 2000, `second attempt came late: ${gap.toFixed(0)} ms`);
  });

  it('retries a 503 without Retry-After by backoff, and gives up after the retries with the problem', async () => {
    const srv = await testServer([problem(503)]);
    servers.push(srv);
    const client = new EvalClient({
      baseUrl: srv.url,
      retry: { retries: 2, baseBackoffMs: 50, jitterMs: 0 },
    });
    await assert.rejects(client.gate(gateRequest), (err: unknown) => {
      assert.ok(err instanceof EvalApiError);
      assert.equal(err.status, 503);
      assert.equal(err.problem?.detail, 'retry later');
      return true;
    });
    assert.equal(srv.arrivals.length, 3);
    // Backoff 50 ms, then 100 ms.
    assert.ok(srv.arrivals[1]! - srv.arrivals[0]! >= 50);
    assert.ok(srv.arrivals[2]! - srv.arrivals[1]! >= 100);
  });

  it('does not retry a 400, and does not wait for a Retry-After beyond maxWaitMs', async () => {
    const bad = await testServer([problem(400)]);
    const long = await testServer([problem(429, { 'retry-after': '3600' })]);
    servers.push(bad, long);
    await assert.rejects(new EvalClient({ baseUrl: bad.url }).gate(gateRequest), EvalApiError);
    assert.equal(bad.arrivals.length, 1);
    await assert.rejects(new EvalClient({ baseUrl: long.url }).gate(gateRequest), (err: unknown) => {
      assert.ok(err instanceof EvalApiError);
      assert.equal(err.retryAfterMs, 3_600_000);
      return true;
    });
    assert.equal(long.arrivals.length, 1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(retryAfterMs('soon'), undefined);
    assert.equal(retryAfterMs(null), undefined);
  });
});

describe('timeout', () => {
  it('fails an attempt that gets no answer within timeoutMs', async () => {
    const silent = await testServer([() => undefined]);
    try {
      const started = performance.now();
      await assert.rejects(
        new EvalClient({ baseUrl: silent.url, timeoutMs: 200 }).gate(gateRequest),
        EvalTimeoutError,
      );
      const took = performance.now() - started;
      assert.ok(took >= 190 && took < 5000, `timed out after ${took.toFixed(0)} ms`);
    } finally {
      await silent.close();
    }
  });
});
