/** POST /api/v1/analytics/plays and GET /api/v1/trending. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { AuthHooks } from '../auth-hook.js';
import { PlayBody, TrendingQuery } from '../schemas/analytics.js';
import type { AnalyticsService } from '../services/analytics-service.js';

export function registerAnalyticsRoutes(
  app: FastifyInstance,
  analytics: AnalyticsService,
  hooks: AuthHooks,
  clientAddress: (request: FastifyRequest) => string,
): void {
  app.post<{ Body: Static<typeof PlayBody> }>(
    '/api/v1/analytics/plays',
    { onRequest: hooks.optionalAuth, schema: { body: PlayBody } },
    async (request, reply) =>
      reply.code(202).send(await analytics.recordPlay(request.auth, clientAddress(request), request.body)),
  );

  app.get<{ Querystring: Static<typeof TrendingQuery> }>(
    '/api/v1/trending',
    { schema: { querystring: TrendingQuery } },
    async (request, reply) =>
      reply
        .header('cache-control', 'public, max-age=900')
        .type('application/json; charset=utf-8')
        .send(await analytics.trendingJson(request.query.window, request.query.limit)),
  );
}
