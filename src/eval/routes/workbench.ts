/**
 * The verifier workbench (web/workbench, built into dist/web/workbench): its page routes and
 * assets. A browser asking for a page that does not exist (a mistyped URL) gets the workbench
 * with a 404, which says so in words; API clients and assets keep the problem answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendRouteNotFound } from '../../core/error-handler.js';
import { registerWebApp } from '../../core/repositories/web-static.js';
import { WORKBENCH_CSP } from '../edge/browser-edge.js';
import { TOOLS } from '../registry.js';
import { noSuchWorkbenchTool } from '../errors.js';

const toolIds = new Set(TOOLS.map((t) => t.id));

export function registerWorkbench(app: FastifyInstance, root: string): void {
  const web = registerWebApp(app, { root, pageCsp: WORKBENCH_CSP, rootFiles: ['favicon.svg'] });
  for (const path of ['/', '/report-card', '/leaderboard'])
    app.get(path, (_request, reply) => web.sendIndex(reply));
  app.get<{ Params: { tool: string } }>('/tools/:tool', (request, reply) => {
    if (toolIds.has(request.params.tool)) return web.sendIndex(reply);
    if (web.built && wantsPage(request)) return web.sendIndex(reply, 404);
    throw noSuchWorkbenchTool(request.params.tool, toolIds);
  });
  app.setNotFoundHandler((request, reply) =>
    web.built && wantsPage(request) && !NOT_PAGES.test(request.url)
      ? web.sendIndex(reply, 404)
      : sendRouteNotFound(request, reply),
  );
}

const NOT_PAGES = /^\/(api|assets|mcp|\.well-known)(\/|$|\?)/;

/** A browser navigating (GET/HEAD accepting HTML), not an API client. */
function wantsPage(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    /\btext\/html\b/.test(request.headers.accept ?? '')
  );
}
