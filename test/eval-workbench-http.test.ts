/**
 * The workbench over HTTP (no browser): pages carry their own CSP while API answers keep the
 * strict one, hashed assets are cached for a year, unknown pages are 404 problems, and a server
 * whose front-end was not built says so. The browser's receipt check agrees with the sealing.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_CSP, WORKBENCH_CSP } from '../src/eval/edge/browser-edge.js';
import { checkReceipt } from '../web/workbench/src/receipt-verify.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { buildWebApp } from './helpers/browser.js';

describe('workbench over HTTP', () => {
  let app: FastifyInstance;
  let root: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const built = await buildWebApp('workbench');
    root = built.root;
    cleanup = () => built.cleanup();
    app = await makeEvalApp({}, { webRoot: root });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });

  it('pages answer the index with the workbench CSP; API answers keep the strict one', async () => {
    expect(WORKBENCH_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    for (const path of ['/', '/tools/gate', '/tools/safepatch', '/report-card', '/leaderboard']) {
      const res = await app.inject(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(WORKBENCH_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.body).toMatch(
        /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/,
      );
      // Nothing inline: every script and style is a file of this origin.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    }
    expect((await app.inject('/api/catalog')).headers['content-security-policy']).toBe(EVAL_CSP);
  });

  it('assets are served with a year-long immutable cache; unknown pages are 404 problems', async () => {
    const files = await readdir(join(root, 'assets'));
    const js = files.find((f) => f.endsWith('.js'))!;
    const res = await app.inject(`/assets/${js}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/tools/nope', '/assets/missing.js', '/anything', '/assets/../index.html']) {
      const miss = await app.inject(path);
      expect(miss.statusCode, path).toBe(404);
      expect(miss.headers['content-type']).toMatch(/problem\+json/);
    }
    expect((await app.inject('/tools/nope')).json().detail).toMatch(
      /No tool nope; the tools are counterexample, gate/,
    );
    expect((await app.inject('/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
  });

  it('a server whose front-end is not built answers its pages 404 naming the build step', async () => {
    const bare = await makeEvalApp({}, { webRoot: await mkdtemp(join(tmpdir(), 'no-web-')) });
    try {
      const res = await bare.inject('/');
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('The web front-end is not built on this server: run `make build`.');
    } finally {
      await bare.close();
    }
  });

  it("the browser's receipt check holds on every tool's receipt and names each tampered hash", async () => {
    const examples = (await app.inject('/api/examples')).json().examples as Record<string, unknown>;
    const catalog = (await app.inject('/api/catalog')).json().tools as { id: string; endpoint: string }[];
    for (const tool of catalog) {
      const text = (await postJson(app, tool.endpoint, examples[tool.id])).body;
      const checks = await checkReceipt(text);
      expect(
        checks.filter((c) => !c.ok),
        tool.id,
      ).toEqual([]);
      const receipt = JSON.parse(text);
      receipt.next_action += '.';
      expect((await checkReceipt(JSON.stringify(receipt))).filter((c) => !c.ok).map((c) => c.field)).toEqual([
        'receipt_sha256',
      ]);
    }
    await expect(checkReceipt('[1]')).rejects.toThrow('not a receipt: the file holds no JSON object');
    await expect(checkReceipt('{"a":1}')).rejects.toThrow('not a receipt: no "hashes" object');
    await expect(checkReceipt('{')).rejects.toThrow(/^not JSON: /);
  });
});
