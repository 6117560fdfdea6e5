/**
 * Serving a built front-end (`dist/web/<app>`, made by scripts/build-web.mjs): its hashed
 * assets under /assets/ with a year-long immutable cache, the few root files (favicon), and
 * `sendIndex` for the page routes, which the caller decides. No server-side rendering.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { WEB_NOT_BUILT, webFileNotBuilt, webNotBuilt } from '../errors/http.js';

export type WebAppName = 'workbench' | 'player';

/** dist/web/<app> of the project, found from this file both in src/ and in dist/src/. */
export function resolveWebDist(name: WebAppName, start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsconfig.json')))
      return join(dir, 'dist', 'web', name);
    dir = dirname(dir);
  }
  throw new Error(`the project root (package.json) was not found above ${start}`);
}

export interface WebAppOptions {
  root: string;
  /** Content-Security-Policy of the HTML page (assets keep the service's). */
  pageCsp?: string;
  /** Files at the root of the build served under their own name (e.g. favicon.svg). */
  rootFiles?: readonly string[];
}

export const NOT_BUILT = WEB_NOT_BUILT;

export interface WebApp {
  built: boolean;
  /**
   * Answers the app's index page (with `status`: 404 for a page that does not exist, which the
   * app then says in words); a 404 naming the missing build when it was not built.
   */
  sendIndex(reply: FastifyReply, status?: number): FastifyReply;
}

export function registerWebApp(app: FastifyInstance, options: WebAppOptions): WebApp {
  const indexFile = join(options.root, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile) : null;
  if (!index) app.log.warn({ root: options.root }, 'web front-end not built (make build): pages answer 404');
  void app.register(fastifyStatic, {
    root: join(options.root, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    wildcard: true,
    // File names carry a content hash: a changed file is a new URL.
    cacheControl: true,
    immutable: true,
    maxAge: '365d',
    suppressWarning: true,
  });
  for (const file of options.rootFiles ?? []) {
    const path = join(options.root, file);
    app.get(`/${file}`, (_request, reply) => {
      if (!existsSync(path)) throw webFileNotBuilt(file);
      return reply
        .type(file.endsWith('.svg') ? 'image/svg+xml' : 'application/octet-stream')
        .header('cache-control', 'public, max-age=86400')
        .send(readFileSync(path));
    });
  }
  return {
    built: index !== null,
    sendIndex(reply, status = 200) {
      if (!index) throw webNotBuilt();
      if (options.pageCsp) void reply.header('content-security-policy', options.pageCsp);
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(index);
    },
  };
}
