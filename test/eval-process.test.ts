import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';

function startEval(env: Record<string, string>): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/eval.ts'], {
    env: {
      ...process.env,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'evalp-')),
      EVAL_HOST: '127.0.0.1',
      EVAL_POOL_SIZE: '1',
      ...env,
    },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function untilListening(port: number, output: () => string): Promise<void> {
  // Wait on the event: the process logs its "listening" line once the socket is bound.
  await expect.poll(() => output(), { timeout: 30_000, interval: 50 }).toContain('eval service listening');
  void port;
}

describe('eval process', () => {
  it('refuses to start on a bad variable, naming it', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main/eval.ts'], {
      env: { ...process.env, EVAL_PORT: 'eighty', EVAL_BODY_LIMIT: 'huge' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('EVAL_PORT');
    expect(r.stderr).toContain('"eighty"');
  });

  it('finishes an in-flight request on SIGTERM, then exits 0; logs are JSON without payloads', async () => {
    const port = await freePort();
    // debug: the arrival line tells when the server holds the request (info logs it once, on the response).
    const { child, output } = startEval({ EVAL_PORT: String(port), LOG_LEVEL: 'debug' });
    await untilListening(port, output);
    const marker = 'payload-marker-7f3a';
    const body = JSON.stringify({ baseline: { [marker]: false }, candidate: { [marker]: true } });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/gate',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now; once the server has taken the request in (its "request received"
      // log line), SIGTERM while it is in flight; then the rest of the body.
      req.write(body.slice(0, 10));
      void expect
        .poll(() => output(), { timeout: 10_000, interval: 20 })
        .toContain('"path":"/api/gate"')
        .then(() => {
          child.kill('SIGTERM');
          return expect.poll(() => output(), { timeout: 10_000, interval: 20 }).toContain('shutting down');
        })
        .then(() => req.end(body.slice(10)), reject);
    });
    const res = await response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).verdict).toBe('HOLD');
    expect(await exited).toBe(0);
    // stdout is the log; stderr may carry Node's own warnings.
    const lines = output()
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(output()).not.toContain(marker);
    // One info line per request, written with its status and duration.
    const perRequest = lines.filter((l) => l.includes('"path":"/api/gate"') && l.includes('"level":30'));
    expect(perRequest).toHaveLength(1);
    expect(JSON.parse(perRequest[0]!)).toMatchObject({
      msg: 'request',
      res: { status: 200 },
      ms: expect.any(Number),
    });
    expect(output()).toContain('shut down cleanly');
  });

  it('on SIGTERM finishes pooled work, running and queued, whose clients already left, logging no error', async () => {
    const port = await freePort();
    // One thread and the TypeScript kernel: five searches of ~0.5 s each (long enough that the
    // first still runs when the fifth arrives on a loaded machine), one running and four queued
    // when the signal arrives; shutdown may take as long as they need.
    const { child, output } = startEval({
      EVAL_PORT: String(port),
      LOG_LEVEL: 'info',
      GRAPH_KERNEL: 'ts',
      SHUTDOWN_TIMEOUT_MS: '50000',
    });
    await untilListening(port, output);
    const body = JSON.stringify({
      expression: 'is_tree => m == n - 1',
      ns: [12, 12, 12, 12, 12],
      restarts: 6,
      steps: 4000,
      seed: 1,
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const requests = Array.from({ length: 5 }, () => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/counterexample',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('error', () => {}); // the clients hang up on purpose
      req.end(body);
      return req;
    });
    // Requests are logged when answered, so the pool's own figures say when all five are in.
    const inPool = async (): Promise<number> => {
      const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as {
        pool: { queued: number; utilization: number };
      };
      return health.pool.queued;
    };
    await expect.poll(inPool, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(4);
    for (const req of requests) req.destroy();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('shut down cleanly');
    expect(output()).not.toMatch(/"level":(50|60)/);
    // The searches still pending at the signal all ran to their end; none was cut off.
    const closed = output()
      .split('\n')
      .find((l) => l.includes('verifier pool closed'));
    expect(closed, output()).toBeDefined();
    expect(JSON.parse(closed!)).toMatchObject({ cutOff: 0 });
    expect(JSON.parse(closed!).pending).toBeGreaterThanOrEqual(4);
  });
});
