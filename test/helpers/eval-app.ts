import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildEvalApp, type EvalAppOverrides } from '../../src/eval/app.js';
import { loadEvalConfig } from '../../src/eval/config.js';

/** An eval app on a private data dir, rate limits off unless the env given turns them on. */
export async function makeEvalApp(
  env: Record<string, string> = {},
  overrides: EvalAppOverrides = {},
): Promise<FastifyInstance> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'eval-test-'));
  const config = loadEvalConfig({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    EVAL_POOL_SIZE: '2',
    ...env,
  });
  return buildEvalApp(config, overrides);
}

export function postJson(
  app: FastifyInstance,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}
