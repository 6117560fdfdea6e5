/** Graceful shutdown on the crash path and on signals, in real child processes. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BOUND_MS = 3000;

interface Fixture {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  port: Promise<number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function start(...flags: string[]): Fixture {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/shutdown-fixture.ts', ...flags], {
    cwd: ROOT,
    env: { ...process.env, SHUTDOWN_TIMEOUT_MS: String(BOUND_MS) },
  });
  let out = '';
  let resolvePort: (port: number) => void = () => undefined;
  const port = new Promise<number>((resolve) => (resolvePort = resolve));
  const onData = (d: Buffer): void => {
    out += d.toString();
    const m = /listening (\d+)/.exec(out);
    if (m) resolvePort(Number(m[1]));
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
    at: performance.now(),
  }));
  return { child, output: () => out, port, exited };
}

/** The log lines (pino JSON) whose msg matches. */
const logged = (output: string, msg: RegExp): Record<string, unknown>[] =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => msg.test(String(l.msg)));

describe('graceful shutdown', () => {
  it('an unhandled rejection closes the server, logs once, and exits non-zero within the bound', async () => {
    const f = start('crash');
    const port = await f.port;
    const res = await fetch(`http://127.0.0.1:${port}/crash`);
    const crashedAt = performance.now();
    expect(res.status).toBe(200);
    const { code, at } = await f.exited;
    expect(code).toBe(1);
    expect(at - crashedAt).toBeLessThan(BOUND_MS);
    expect(f.output()).toContain('server closed');
    const fatal = logged(f.output(), /uncaught error/);
    expect(fatal).toHaveLength(1);
    expect(JSON.stringify(fatal[0])).toContain('boom from a forgotten promise');
    expect(logged(f.output(), /shut down cleanly/)).toHaveLength(1);
  });

  it('SIGTERM closes the server and exits 0', async () => {
    const f = start();
    await f.port;
    f.child.kill('SIGTERM');
    const { code } = await f.exited;
    expect(code).toBe(0);
    expect(f.output()).toContain('server closed');
  });

  it('a closer that hangs is cut off at the bound with exit 1', async () => {
    const f = start('hang');
    await f.port;
    const sentAt = performance.now();
    f.child.kill('SIGTERM');
    const { code, at } = await f.exited;
    expect(code).toBe(1);
    expect(at - sentAt).toBeGreaterThanOrEqual(BOUND_MS - 50);
    expect(logged(f.output(), /shutdown timed out/)).toHaveLength(1);
  });

  it('a second signal during a hanging shutdown exits 1 at once', async () => {
    const f = start('hang');
    await f.port;
    f.child.kill('SIGTERM');
    await expect.poll(() => f.output(), { timeout: 10_000, interval: 20 }).toContain('server closed');
    const sentAt = performance.now();
    f.child.kill('SIGINT');
    const { code, at } = await f.exited;
    expect(code).toBe(1);
    expect(at - sentAt).toBeLessThan(BOUND_MS);
    expect(logged(f.output(), /second signal/)).toHaveLength(1);
    expect(logged(f.output(), /shutdown timed out/)).toHaveLength(0);
  });
});
