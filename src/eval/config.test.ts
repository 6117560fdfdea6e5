import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/env.js';
import { loadEvalConfig } from './config.js';

describe('eval configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadEvalConfig({});
    expect(c).toMatchObject({
      port: 8080,
      bodyLimit: 16 * 1024 * 1024,
      graphKernel: 'auto',
      cacheUrl: undefined,
    });
    expect(c.rateLimits).toEqual({ enabled: true, perMinute: 1200, burst: 100 });
    expect(c.poolSize).toBeGreaterThanOrEqual(1);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('takes EVAL_PUBLIC_URL as an origin only (default from DOMAIN: https in production)', () => {
    expect(loadEvalConfig({ EVAL_PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadEvalConfig({ EVAL_PORT: '9000', DOMAIN: 'verifier.example.org' }).publicUrl).toBe(
      'http://verifier.example.org:9000',
    );
    expect(loadEvalConfig({ EVAL_PUBLIC_URL: 'https://eval.example.org' }).publicUrl).toBe(
      'https://eval.example.org',
    );
    expect(loadEvalConfig({ EVAL_PUBLIC_URL: 'http://[::1]:8080' }).publicUrl).toBe('http://[::1]:8080');
    for (const bad of ['eval.example.org', 'https://eval.example.org/', 'https://a"<b', 'https://a/x?y'])
      expect(() => loadEvalConfig({ EVAL_PUBLIC_URL: bad }), bad).toThrow(/EVAL_PUBLIC_URL/);
  });

  it('checks /mcp Host against the one origin: EVAL_PUBLIC_URL, DOMAIN its deprecated alias', () => {
    expect(loadEvalConfig({}).domain).toBe('localhost');
    expect(loadEvalConfig({ EVAL_PUBLIC_URL: 'https://Eval.Example.org:8443' }).domain).toBe(
      'eval.example.org',
    );
    expect(loadEvalConfig({ EVAL_PUBLIC_URL: 'http://[::1]:8080' }).domain).toBe('[::1]');
    expect(loadEvalConfig({ DOMAIN: 'verifier.example.org' }).domain).toBe('verifier.example.org');
    const both = { EVAL_PUBLIC_URL: 'https://eval.example.org', DOMAIN: 'EVAL.example.org' };
    expect(loadEvalConfig(both)).toMatchObject({
      domain: 'eval.example.org',
      publicUrl: both.EVAL_PUBLIC_URL,
    });
    expect(() => loadEvalConfig({ ...both, DOMAIN: 'music.example.org' })).toThrow(
      /EVAL_PUBLIC_URL \(https:\/\/eval.example.org\) and DOMAIN \(music.example.org\) name different hosts.*make EVAL_PUBLIC_URL's host music.example.org, or leave DOMAIN out/,
    );
  });

  it('names every bad variable in one error', () => {
    try {
      loadEvalConfig({
        EVAL_PORT: '70000',
        GRAPH_KERNEL: 'gpu',
        RATE_LIMITS: 'maybe',
        CACHE_URL: 'http://x',
      });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).message;
      for (const name of ['EVAL_PORT', 'GRAPH_KERNEL', 'RATE_LIMITS', 'CACHE_URL'])
        expect(text).toContain(name);
    }
  });

  it('parses sizes and lists, and treats empty values as unset', () => {
    const c = loadEvalConfig({
      EVAL_BODY_LIMIT: '2mb',
      TRUSTED_PROXIES: '10.0.0.1, 10.0.0.2',
      EVAL_POOL_SIZE: '',
      CACHE_URL: '',
    });
    expect(c.bodyLimit).toBe(2 * 1024 * 1024);
    expect(c.trustedProxies).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(c.cacheUrl).toBeUndefined();
    expect(() => loadEvalConfig({ EVAL_BODY_LIMIT: 'lots' })).toThrow(/EVAL_BODY_LIMIT/);
  });

  it('VERIFY_MODE: local by default without Redis; queue needs CACHE_URL and takes its settings', () => {
    expect(loadEvalConfig({}).verify).toEqual({ mode: 'local' });
    expect(() => loadEvalConfig({ VERIFY_MODE: 'queue' })).toThrow(/VERIFY_MODE=queue needs CACHE_URL/);
    expect(() => loadEvalConfig({ VERIFY_MODE: 'cluster' })).toThrow(/VERIFY_MODE/);
    expect(
      loadEvalConfig({
        VERIFY_MODE: 'queue',
        CACHE_URL: 'redis://r:6379',
        VERIFY_QUEUE_PREFIX: 'vq',
        VERIFY_QUEUE_MAX_DEPTH: '50',
      }).verify,
    ).toEqual({ mode: 'queue', redisUrl: 'redis://r:6379', prefix: 'vq', maxDepth: 50 });
  });
});
