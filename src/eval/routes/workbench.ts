/** The verifier workbench (web/workbench, built into dist/web/workbench): its page routes and assets. */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';
import { registerWebApp } from '../../core/web-static.js';
import { WORKBENCH_CSP } from '../edge/browser-edge.js';
import { TOOLS } from '../registry.js';

const toolIds = new Set(TOOLS.map((t) => t.id));

export function registerWorkbench(app: FastifyInstance, root: string): void {
  const web = registerWebApp(app, { root, pageCsp: WORKBENCH_CSP, rootFiles: ['favicon.svg'] });
  for (const path of ['/', '/report-card', '/leaderboard'])
    app.get(path, (_request, reply) => web.sendIndex(reply));
  app.get<{ Params: { tool: string } }>('/tools/:tool', (request, reply) => {
    if (!toolIds.has(request.params.tool))
      throw new AppError(
        'not_found',
        `No tool ${request.params.tool}; the tools are ${[...toolIds].join(', ')}.`,
      );
    return web.sendIndex(reply);
  });
}
