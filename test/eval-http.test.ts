import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEvalConfig } from '../src/eval/config.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { bigCohort, useToolApp } from './helpers/tool-http.js';

const t = useToolApp();

describe('service endpoints', () => {
  it('lists every registered tool in the catalog with an example that answers 200', async () => {
    const catalog = (await t.app.inject('/api/catalog')).json();
    expect(catalog.tools.length).toBeGreaterThanOrEqual(1);
    for (const tool of catalog.tools) {
      expect(tool).toMatchObject({
        id: expect.any(String),
        operationId: expect.any(String),
        endpoint: expect.stringMatching(/^\/api\//),
      });
      const res = await postJson(t.app, tool.endpoint, t.examples[tool.id]);
      expect(res.statusCode, `${tool.id}: ${res.body.slice(0, 300)}`).toBe(200);
      expect(res.json().tool).toBe(tool.id);
    }
  });

  it('answers health with version and pool figures', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', version: '0.8.0', pool: { size: 2 } });
    expect(res.json().runtime).toEqual({ name: 'node', version: process.versions.node });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('publishes OpenAPI 3.1.0 version 0.8.0 built from the validating schemas', async () => {
    const spec = (await t.app.inject('/openapi.json')).json();
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.version).toBe('0.8.0');
    const gate = spec.components.schemas.gateRequest;
    expect(gate.additionalProperties).toBe(false);
    expect(gate.properties.baseline.maxProperties).toBe(5000);
    expect(gate.properties.policy.properties.confidence_alpha).toMatchObject({
      exclusiveMinimum: 0,
      maximum: 1,
    });
    expect(spec.paths['/api/gate'].post.operationId).toBe('gate');
  });

  it('counts calls, 2xx, 4xx and verdicts per tool in stats, with nothing from payloads', async () => {
    const before = (await t.app.inject('/api/stats')).json().tools.gate ?? {
      calls: 0,
      status_2xx: 0,
      status_4xx: 0,
      verdicts: {},
    };
    await postJson(t.app, '/api/gate', t.examples.gate);
    await postJson(t.app, '/api/gate', { baseline: {} });
    const stats = (await t.app.inject('/api/stats')).json();
    expect(stats.tools.gate.calls).toBe(before.calls + 2);
    expect(stats.tools.gate.status_2xx).toBe(before.status_2xx + 1);
    expect(stats.tools.gate.status_4xx).toBe(before.status_4xx + 1);
    expect(stats.tools.gate.verdicts.PASS).toBe((before.verdicts.PASS ?? 0) + 1);
    expect(JSON.stringify(stats)).not.toContain('q-01');
  });
});

describe('errors and metrics', () => {
  it('answers unknown routes with a problem 404', async () => {
    const res = await t.app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
  });

  it('exposes the seed metrics with route templates, accepted by promtool', async () => {
    await t.app.inject('/api/health');
    const text = (await t.app.inject('/metrics')).body;
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.1",method="POST",route="\/api\/gate"\}/,
    );
    for (const le of ['0.1', '0.5', '1', '2', '5', '\\+Inf'])
      expect(text).toMatch(new RegExp(`_bucket\\{le="${le}"`));
    expect(text).not.toMatch(/route="\/api\/nope"/);
    const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p));
    expect(promtool, 'promtool is installed by make setup (Debian package prometheus)').toBeDefined();
    const out = execFileSync(promtool!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(out).not.toMatch(/error/i);
  });

  it('serves /metrics to the configured scrapers only (loopback by default), as the music services do', async () => {
    const metrics = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url: '/metrics', remoteAddress, headers });
    expect((await metrics('127.0.0.1')).statusCode).toBe(200);
    expect((await metrics('::1')).statusCode).toBe(200);
    const outsider = await metrics('203.0.113.9');
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().detail).toMatch(/METRICS_SCRAPERS/);
    expect(outsider.body).not.toContain('http_requests_total');
    expect((await metrics('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    const scrapeNet = await makeEvalApp({ METRICS_SCRAPERS: '10.9.0.0/16' });
    try {
      expect((await scrapeNet.inject({ url: '/metrics', remoteAddress: '10.9.1.1' })).statusCode).toBe(200);
      expect((await scrapeNet.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(403);
    } finally {
      await scrapeNet.close();
    }
    expect(() => loadEvalConfig({ METRICS_SCRAPERS: '10.0.0.0/99' })).toThrow(
      /METRICS_SCRAPERS: "10\.0\.0\.0\/99"/,
    );
  });
});

describe('hostile bodies', () => {
  it('answers 400, not 500, for absurdly nested free-form fields', async () => {
    const deep = '['.repeat(20000) + ']'.repeat(20000);
    for (const [url, body] of [
      ['/api/leakage', `{"exam":[{"item_id":"a","prompt":"x y z","extra":${deep}}]}`],
      ['/api/health-report', `{"history":[{"item_id":"a","system":"s","passed":true,"extra":${deep}}]}`],
      [
        '/api/inspect',
        `{"exam":[{"item_id":"a","prompt":"x y z","extra":${deep}}],"baseline":{"a":true},"candidate":{"a":true}}`,
      ],
    ] as const) {
      const res = await postJson(t.app, url, body);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().detail).toMatch(/nests arrays\/objects too deeply/);
    }
  });
});

/** `value` with `ch` appended to its first string, and that string's JSON pointer. */
function withCharacter(value: unknown, ch: string, at = ''): [unknown, string] | undefined {
  if (typeof value === 'string') return [value + ch, at];
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = withCharacter(v, ch, `${at}/${k}`);
    if (found)
      return [
        Array.isArray(value) ? Object.assign([...value], { [k]: found[0] }) : { ...value, [k]: found[0] },
        found[1],
      ];
  }
  return undefined;
}

describe('text a receipt cannot hold', () => {
  it('refuses a lone surrogate, a noncharacter or NUL in any string of every tool with a 400 naming path and code point', async () => {
    const catalog = (await t.app.inject('/api/catalog')).json().tools as { id: string; endpoint: string }[];
    for (const tool of catalog)
      for (const [ch, code] of [
        ['\ud800', 'U+D800'],
        ['\udfff', 'U+DFFF'],
        ['\uffff', 'U+FFFF'],
        ['\u{10fffe}', 'U+10FFFE'],
        ['\u0000', 'U+0000'],
      ] as const) {
        const [body, path] = withCharacter(t.examples[tool.id], ch)!;
        const res = await postJson(t.app, tool.endpoint, JSON.stringify(body));
        expect(res.statusCode, `${tool.id} ${code}: ${res.body.slice(0, 300)}`).toBe(400);
        expect(res.json().errors[0], tool.id).toEqual({ path, message: expect.stringContaining(code) });
      }
  });

  it('names a map key holding one, and keeps surrogate pairs and the same text escaped', async () => {
    const gate = t.examples.gate as { baseline: Record<string, boolean>; candidate: Record<string, boolean> };
    const bad = { ...gate, baseline: { ...gate.baseline, 'q\ud83d': true } };
    const res = await postJson(t.app, '/api/gate', JSON.stringify(bad));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toEqual({
      path: '/baseline/q\ud83d',
      message: expect.stringMatching(
        /^is a key that contains the character U\+D83D, half of a surrogate pair/,
      ),
    });
    const ok = { ...gate, baseline_name: 'base \u{1f3b5}', candidate_name: 'cand \\u0000 \\ud800' };
    for (const text of [JSON.stringify(ok), JSON.stringify(ok).replace('\u{1f3b5}', '\\ud83c\\udfb5')]) {
      const res = await postJson(t.app, '/api/gate', text);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    }
  });
});

describe('pool deadline', () => {
  it('answers 503 with Retry-After when a verification outlives EVAL_TASK_TIMEOUT_MS, and the pool keeps serving', async () => {
    const strict = await makeEvalApp({ EVAL_TASK_TIMEOUT_MS: '1' });
    try {
      const res = await postJson(strict, '/api/gate', bigCohort(5000));
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().detail).toMatch(/did not finish within 1 ms/);
      expect(JSON.stringify(res.json())).not.toMatch(/at .*\.js/); // no stack
    } finally {
      await strict.close();
    }
    // The regular app's pool is unaffected and still answers.
    expect((await postJson(t.app, '/api/gate', t.examples.gate)).statusCode).toBe(200);
  });
});
