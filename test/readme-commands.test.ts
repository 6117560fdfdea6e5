/**
 * Every command line of the README's shell code blocks, run exactly as written (`bash -c`) on a
 * PATH whose `node` is not the project's Node 24 (the system's, older, or none): a command that
 * needs the project's runtime must find it itself. Lines are extracted from the README, so a new
 * one is run here by itself; the few that cannot run inside a test are listed in SKIPPED, each
 * with the reason, and a SKIPPED line the README no longer holds fails the test.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectEval, type Outcome } from '../src/eval/harness-logs/fixtures.testing.js';
import { getTool } from '../src/eval/registry.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { testDatabaseUrl, uniqueSuffix } from './helpers/music-env.js';

const ROOT = path.join(import.meta.dirname, '..');

/** Lines that cannot run inside a test, and why. Everything else in the README runs. */
const SKIPPED: Record<string, string> = {
  'make start': 'runs every service in the foreground until stopped: test/start-all.test.ts starts it',
  'make test': 'the whole suite, this test included',
  'make start-eval': 'a server in the foreground until stopped (make start runs the same entry)',
  'make start-music': 'a server in the foreground until stopped (make start runs the same entry)',
  'make start-worker': 'a server in the foreground until stopped (make start runs the same entry)',
  'make start-verify-worker': 'a queue consumer until stopped: test/verify-queue-process.test.ts runs it',
  'make check': 'lint, types and dead-code checks over the whole tree (minutes); CI runs it',
  'make bench': 'every benchmark (minutes, on an idle machine)',
  'make load': 'starts its own stack and loads it (minutes): test/load-tests.test.ts runs the scenarios',
  'make cluster-test': 'root only: ten hosts as network namespaces under faults and load (minutes)',
  'bin/verifier-music library import ~/Music --owner alice':
    'needs a folder of music and an account: test/music-library-import-resume.test.ts runs the command',
};

/** The fields of an mdast node this test reads. */
interface MarkdownNode {
  type: string;
  lang?: string | null;
  value?: string;
  children?: MarkdownNode[];
}

/** The README's shell command lines, comments and blank lines left out. */
function readmeCommands(markdown: string): string[] {
  const lines: string[] = [];
  const visit = (node: MarkdownNode): void => {
    if (node.type === 'code' && ['sh', 'bash', 'shell'].includes(node.lang ?? ''))
      for (const raw of (node.value ?? '').split('\n')) {
        // A comment starts at a '#' after whitespace; the README's commands hold no quoted '#'.
        const line = raw.replace(/(^|\s)#.*$/, '').trim();
        if (line) lines.push(line);
      }
    for (const child of node.children ?? []) visit(child);
  };
  visit(fromMarkdown(markdown));
  return lines;
}

/** PATH without the project's runtime, so `node` there is the system's (older) or missing. */
function pathWithoutRuntime(): string {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => !dir.includes(`${path.sep}.runtime${path.sep}`) && !dir.includes('node_modules'))
    .join(':');
}

function run(line: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const commands = readmeCommands(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
const runnable = commands.filter((c) => !(c in SKIPPED));

describe('README commands', () => {
  // The README's relative paths resolve in a folder of their own: bin/ of the project, the files
  // the commands name (a receipt from the service, two Inspect AI logs), nothing else.
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  let app: FastifyInstance;

  beforeAll(async () => {
    symlinkSync(path.join(ROOT, 'bin'), path.join(cwd, 'bin'));
    app = await makeEvalApp();
    const gate = getTool('gate');
    const answer = await postJson(app, gate.path, gate.example);
    expect(answer.statusCode, answer.body).toBe(200);
    writeFileSync(path.join(cwd, 'receipt.json'), answer.body);
    // Six items the candidate solves in every run and the baseline never: PASS (exit 0).
    const items = (runs: boolean): Outcome[] =>
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id, runs: [runs, runs, runs] }));
    writeFileSync(path.join(cwd, 'base.eval'), inspectEval(items(false)));
    writeFileSync(path.join(cwd, 'cand.eval'), inspectEval(items(true)));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('finds the commands, and every skipped line is still in the README', () => {
    expect(commands.length).toBeGreaterThan(5);
    expect(Object.keys(SKIPPED).filter((line) => !commands.includes(line))).toEqual([]);
    expect(runnable.length).toBeGreaterThan(0);
  });

  it.each(runnable)(
    '%s',
    async (line) => {
      const env = {
        PATH: pathWithoutRuntime(),
        HOME: process.env.HOME ?? cwd,
        DATABASE_URL: testDatabaseUrl(),
        // admin create reads the password from here when set (never from the command line).
        ADMIN_PASSWORD: `readme test passphrase ${uniqueSuffix()}`,
      };
      const { code, output } = await run(line.replace(/\balice\b/g, `alice_${uniqueSuffix()}`), cwd, env);
      expect(code, output).toBe(0);
    },
    120_000,
  );
});
