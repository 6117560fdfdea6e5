/**
 * The music player (web/player, built into dist/web/player): its assets under /assets/, and the
 * index page for every GET/HEAD path no route claims, so client-side routes such as
 * /tracks/<id> load the app. Unknown /api/ and /assets/ paths stay a 404 problem (405 with Allow
 * when the path has routes under other methods): an API client must not receive an HTML page.
 */
import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../../core/error-handler.js';
import { toProblem } from '../../core/errors.js';
import { methodNotAllowed } from '../../core/route-methods.js';
import { registerWebApp, resolveWebDist } from '../../core/repositories/web-static.js';
import { noRoute, playerNotBuilt } from '../errors/web.js';

// A missing script must not come back as HTML (the browser would report a MIME error instead).
const NOT_PAGES = /^\/(api|assets)(\/|$)/;

export function resolveWebRoot(): string {
  return resolveWebDist('player');
}

export function registerWebFallback(app: FastifyInstance, webRoot: string): void {
  const web = registerWebApp(app, { root: webRoot, rootFiles: ['favicon.svg'] });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const notAllowed = methodNotAllowed(request);
    if (notAllowed) return sendProblem(reply, toProblem(notAllowed), notAllowed.headers);
    if ((request.method === 'GET' || request.method === 'HEAD') && !NOT_PAGES.test(path)) {
      if (web.built) return web.sendIndex(reply);
      return sendProblem(reply, toProblem(playerNotBuilt()));
    }
    return sendProblem(reply, toProblem(noRoute(request.method, path)));
  });
}
