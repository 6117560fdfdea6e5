/** .env.example names every setting the four processes read, so an operator can find each one. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EvalEnv } from '../src/eval/config.js';
import { VerifyWorkerEnv } from '../src/eval/verify-queue/worker-config.js';
import { EnvSchema as MusicEnv } from '../src/music/config.js';
import { WorkerEnvSchema } from '../src/music/worker-config.js';
import { OffsiteEnv } from '../src/ops/offsite-target.js';

const listed = new Set(
  readFileSync(new URL('../.env.example', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined),
);

describe('.env.example', () => {
  it.each([
    ['eval', EvalEnv],
    ['verify-worker', VerifyWorkerEnv],
    ['music-api', MusicEnv],
    ['music-worker', WorkerEnvSchema],
    ['ops backup (off-site copy)', OffsiteEnv],
  ])('lists every setting %s reads', (_name, schema) => {
    const missing = Object.keys(schema.properties).filter((key) => !listed.has(key));
    expect(missing).toEqual([]);
  });

  it('lists the ops settings read outside a schema', () => {
    for (const name of ['BACKUP_DIR', 'EVAL_DB_USER']) expect(listed.has(name), name).toBe(true);
  });
});
