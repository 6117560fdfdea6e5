/**
 * Every path no route claims serves the web front-end's index page (GET/HEAD), so client-side
 * routes such as /tracks/<id> load the app. Unknown /api/ paths and other methods stay a 404
 * problem (405 with Allow when the path has routes under other methods): an API client must
 * not receive an HTML page for a mistyped endpoint.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../../core/error-handler.js';
import { AppError, toProblem } from '../../core/errors.js';
import { methodNotAllowed } from '../../core/route-methods.js';

/** The project's web/ folder, found from this file both in src/ and in dist/src/. */
export function resolveWebRoot(start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'web', 'index.html')) && existsSync(join(dir, 'package.json')))
      return join(dir, 'web');
    dir = dirname(dir);
  }
  throw new Error(`web/index.html not found above ${start}`);
}

export function registerWebFallback(app: FastifyInstance, webRoot: string): void {
  const index = readFileSync(join(webRoot, 'index.html'));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const notAllowed = methodNotAllowed(request);
    if (notAllowed) return sendProblem(reply, toProblem(notAllowed), notAllowed.headers);
    if ((request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/')) {
      return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
    }
    return sendProblem(
      reply,
      toProblem(new AppError('not_found', `No route for ${request.method} ${path}.`)),
    );
  });
}
