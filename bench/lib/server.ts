/** Starts a server script in a child process on a free port and waits until it answers. */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../test/helpers/free-port.js';

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startNode(
  args: string[],
  env: Record<string, string>,
  readyPath: string,
  port: number,
): Promise<Child> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url + readyPath);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not answer ${readyPath} within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The built eval service (make bench builds first), with rate limits off. */
export async function startEval(env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  return startNode(
    ['dist/src/main/eval.js'],
    {
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      EVAL_PORT: String(port),
      EVAL_HOST: '127.0.0.1',
      DATA_DIR: '.tmp/bench-data',
      ...env,
    },
    '/api/health',
    port,
  );
}
