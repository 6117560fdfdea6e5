/**
 * The real eval service for these tests: the repository's build (`make build` or
 * `node scripts/build.mjs` at the root), started as its own process on a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = path.join(ROOT, 'dist/src/main/eval.js');

export interface Service {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  srv.close();
  await once(srv, 'close');
  return port;
}

/** Resolves once the service logs that it listens (its first line at info level). */
export async function startService(env: Record<string, string> = {}): Promise<Service> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: build the service first (make build)`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      EVAL_PORT: String(port),
      EVAL_HOST: '127.0.0.1',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'info',
      EVAL_POOL_SIZE: '1',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'eval-client-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before listening`)));
    lines.on('line', (line) => {
      if (line.includes('eval service listening')) resolve();
    });
  });
  lines.close();
  child.stdout!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
