/** GET /api/v1/search, /api/v1/artists/:id, /api/v1/albums/:id and /api/v1/new (new uploads). */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AuthHooks } from '../auth-hook.js';
import { CatalogParams, NewestQuery, SearchQuery } from '../schemas/catalog.js';
import type { CatalogService } from '../services/catalog-service.js';

type Params = { Params: Static<typeof CatalogParams> };

export function registerCatalogRoutes(app: FastifyInstance, catalog: CatalogService, hooks: AuthHooks): void {
  // The caller's own private tracks are found too: never stored by a shared cache.
  const maybe = { onRequest: hooks.optionalAuth };
  const privately = 'private, no-store';

  app.get<{ Querystring: Static<typeof SearchQuery> }>(
    '/api/v1/search',
    { ...maybe, schema: { querystring: SearchQuery } },
    async (request, reply) =>
      reply
        .header('cache-control', privately)
        .send(await catalog.search(request.auth, request.query.q, request.query.limit)),
  );

  app.get<Params>(
    '/api/v1/artists/:id',
    { ...maybe, schema: { params: CatalogParams } },
    async (request, reply) =>
      reply.header('cache-control', privately).send(await catalog.artist(request.auth, request.params.id)),
  );

  app.get<Params>(
    '/api/v1/albums/:id',
    { ...maybe, schema: { params: CatalogParams } },
    async (request, reply) =>
      reply.header('cache-control', privately).send(await catalog.album(request.auth, request.params.id)),
  );

  app.get<{ Querystring: Static<typeof NewestQuery> }>(
    '/api/v1/new',
    { schema: { querystring: NewestQuery } },
    async (request) => catalog.newest(request.query.limit),
  );
}
