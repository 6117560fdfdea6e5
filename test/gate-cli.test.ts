/**
 * promptfoo itself (pinned devDependency, echo provider, offline) writes two output files with
 * --repeat 3; `cli gate` (as a process) and POST /api/gate/logs read them. Hand computation:
 * the baseline prompt passes item "one" only, the candidate all six items, every run alike:
 * 5 gains, 0 regressions, each difference 1, so p = P(X >= 5), X ~ Bin(5, 1/2) = 1/32.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp } from './helpers/eval-app.js';
import { multipartBody } from './helpers/multipart.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'gate-cli-'));
const PROMPTFOO = path.resolve('node_modules/promptfoo/dist/src/entrypoint.js');
const CLI = ['--import', 'tsx', 'src/main/cli.ts', 'gate'];
// Each CLI run is a process paying tsx's start-up; on a loaded machine a few take minutes.
const names = ['one', 'two', 'three', 'four', 'five', 'six'];

function config(prompt: string): string {
  const tests = names
    .map(
      (n) =>
        `  - description: ${n}\n    vars: { q: "${n === 'one' ? 'ok ' : ''}${n}" }\n    assert: [{ type: icontains, value: "ok" }]`,
    )
    .join('\n');
  return `prompts:\n  - "${prompt}"\nproviders:\n  - echo\ntests:\n${tests}\n`;
}

async function promptfoo(name: string, prompt: string): Promise<string> {
  const cfg = path.join(dir, `${name}.yaml`);
  const out = path.join(dir, `${name}.json`);
  writeFileSync(cfg, config(prompt));
  await run(
    process.execPath,
    [PROMPTFOO, 'eval', '-c', cfg, '--repeat', '3', '--no-cache', '--no-table', '--no-write', '-o', out],
    {
      cwd: dir,
      env: {
        ...process.env,
        PROMPTFOO_CONFIG_DIR: path.join(dir, 'promptfoo'),
        PROMPTFOO_DISABLE_TELEMETRY: '1',
        PROMPTFOO_DISABLE_UPDATE: '1',
        PROMPTFOO_DISABLE_SHARING: '1',
      },
    },
  ).catch((err: { code?: number }) => {
    // promptfoo exits 100 when some tests fail; the file is written all the same.
    if (err.code !== 100) throw err;
  });
  return out;
}

async function gate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let baseline: string;
let candidate: string;
let app: FastifyInstance;

beforeAll(async () => {
  baseline = await promptfoo('baseline', 'Q: {{q}}');
  candidate = await promptfoo('candidate', 'Q: {{q}} (ok)');
  app = await makeEvalApp();
}, 300_000);
afterAll(async () => {
  await app?.close();
});

describe('cli gate on real promptfoo output', () => {
  it('passes with 5 gains, 0 regressions, p = 1/32, and writes the table and a Markdown summary', async () => {
    const results = (JSON.parse(readFileSync(baseline, 'utf8')) as { results: { results: unknown[] } })
      .results.results;
    expect(results).toHaveLength(18); // 6 tests x 3 repeats
    const summary = path.join(dir, 'summary.md');
    const r = await gate(baseline, candidate, '--summary', summary);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/verdict\s+PASS/);
    expect(r.stdout).toMatch(/gains\s+5\n/);
    expect(r.stdout).toMatch(/p \(one-sided\)\s+0\.03125 \(exact-binomial\)/);
    expect(r.stdout).toMatch(/baseline echo\s+16\.7% .*\(3\/18 runs\)/);
    expect(readFileSync(summary, 'utf8')).toMatch(/### Promotion gate: PASS[\s\S]*\| gains \| 5 \|/);
    const json = await gate(baseline, candidate, '--json');
    const receipt = JSON.parse(json.stdout);
    expect(receipt.summary).toMatchObject({ items: 6, gains: 5, regressions: 0, p_one_sided: 1 / 32 });
    expect(receipt.result.sources.baseline).toMatchObject({
      format: 'promptfoo',
      harness_version: '0.123.1',
      samples: 18,
      items: 6,
    });
    expect(receipt.result.sources.baseline.runs).toEqual({ total: 18, per_item_min: 3, per_item_max: 3 });

    const { payload, headers } = multipartBody([
      { name: 'baseline', value: readFileSync(baseline), filename: 'baseline.json' },
      { name: 'candidate', value: readFileSync(candidate), filename: 'candidate.json' },
    ]);
    const res = await app.inject({ method: 'POST', url: '/api/gate/logs', payload, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toMatchObject({
      gains: 5,
      regressions: 0,
      p_one_sided: 1 / 32,
    });
    expect(res.json().verdict).toBe('PASS');
    expect(res.json().items).toEqual(receipt.items);
  }, 240_000);

  it('gates the clean cohort with --exposure: three exposed gains turn PASS into HOLD', async () => {
    // promptfoo's input text is the description, then the vars ("two\ntwo"). Clean cohort:
    // one, five, six; 2 gains, p = P(X >= 2), X ~ Bin(2, 1/2) = 1/4 > 0.05 -> HOLD (exit 2).
    const exposure = path.join(dir, 'exposure.jsonl');
    writeFileSync(
      exposure,
      '{"content": "two two"}\n{"content": "Three, three."}\n{"prompt": "four four"}\n',
    );
    const badExposure = path.join(dir, 'bad-exposure.json');
    writeFileSync(badExposure, '[{"source": "wiki"}]');
    // Three processes at once: each pays tsx's start-up, which is long on a loaded machine.
    const [r, table, bad] = await Promise.all([
      gate(baseline, candidate, '--exposure', exposure, '--json'),
      gate(baseline, candidate, '--exposure', exposure),
      gate(baseline, candidate, '--exposure', badExposure),
    ]);
    expect(r.code).toBe(2);
    const receipt = JSON.parse(r.stdout) as { verdict: string; summary: Record<string, unknown> };
    expect(receipt.verdict).toBe('HOLD');
    expect(receipt.summary).toMatchObject({ items: 3, gains: 2, p_one_sided: 1 / 4, verdict_changed: true });
    expect(receipt.summary.full).toMatchObject({ verdict: 'PASS', gains: 5, p_one_sided: 1 / 32 });
    expect(table.stdout).toMatch(/full cohort\s+PASS/);
    expect(table.stdout).toMatch(/exposed\s+3 quarantined/);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/\/exposure\/0: has neither an identity/);
  }, 180_000);

  it('exits 1 on BLOCK, 2 on HOLD, 3 on bad input', async () => {
    expect((await gate(candidate, baseline)).code).toBe(1);
    const hold = await gate(baseline, candidate, '--alpha', '0.01');
    expect(hold.code).toBe(2);
    expect(hold.stdout).toMatch(/verdict\s+HOLD/);
    const missing = await gate(baseline, path.join(dir, 'nope.json'));
    expect(missing.code).toBe(3);
    const notALog = path.join(dir, 'notes.txt');
    writeFileSync(notALog, 'hello\n');
    const unknown = await gate(baseline, notALog);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/unknown log format: text starting "hello/);
    expect((await gate(baseline, candidate, '--errors', 'skip')).code).toBe(3);
    const help = await gate('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/exit codes: 0 PASS, 1 BLOCK, 2 HOLD, 3 bad input/);
  }, 240_000);
});
