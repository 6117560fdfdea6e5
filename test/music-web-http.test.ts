/**
 * The player over HTTP (no browser): page paths answer the built index under the seed's CSP
 * (which already allows what the player needs: its own scripts, media from blob: for hls.js),
 * hashed assets are cached for a year, a missing asset or API path is a 404 problem, and a
 * server whose player was not built says so.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../src/core/security-headers.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { buildWebApp } from './helpers/browser.js';

describe('music player over HTTP', () => {
  let t: MusicTestApp;
  let root: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const built = await buildWebApp('player');
    root = built.root;
    cleanup = () => built.cleanup();
    t = await createMusicTestApp({ RATE_LIMITS: 'off' }, { webRoot: root });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await cleanup?.();
  });

  it('page paths answer the built index under the CSP, with nothing inline', async () => {
    const csp = contentSecurityPolicy(t.config.domain);
    expect(csp).toContain("media-src 'self' blob:");
    expect(csp).toContain("script-src 'self'");
    for (const path of [
      '/',
      '/trending',
      '/tracks/0b6e7a4e-8b55-4d7e-9a43-3b1f7c0e5a11',
      '/users/someone',
      '/upload',
    ]) {
      const res = await t.app.inject(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-security-policy']).toBe(csp);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toMatch(
        /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/,
      );
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    }
  });

  it('assets are immutable for a year; a missing asset or API path is a 404 problem, not the page', async () => {
    const js = (await readdir(join(root, 'assets'))).filter((f) => f.endsWith('.js'));
    expect(js.some((f) => f.startsWith('hls.light-'))).toBe(true);
    for (const file of js) {
      const res = await t.app.inject(`/assets/${file}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    for (const path of ['/assets/index-missing.js', '/api/v1/nope']) {
      const res = await t.app.inject(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    expect((await t.app.inject({ method: 'POST', url: '/tracks/x' })).statusCode).toBe(404);
  });

  it('a server whose player was not built answers its pages 404 naming the build step', async () => {
    const bare = await createMusicTestApp(
      { RATE_LIMITS: 'off' },
      { webRoot: await mkdtemp(join(tmpdir(), 'no-player-')) },
    );
    try {
      const res = await bare.app.inject('/tracks/abc');
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('The web front-end is not built on this server: run `make build`.');
    } finally {
      await bare.close();
    }
  });
});
