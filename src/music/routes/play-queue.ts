/** GET/PUT /api/v1/me/play-queue: the saved play queue Subsonic's getPlayQueue/savePlayQueue share. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { PlayQueueBody } from '../schemas/play-queue.js';
import type { PlayQueueService } from '../services/play-queue-service.js';

const PRIVATE = 'private, no-store';

export function registerPlayQueueRoutes(
  app: FastifyInstance,
  queues: PlayQueueService,
  hooks: AuthHooks,
): void {
  const auth = { onRequest: hooks.requireAuth };

  app.get('/api/v1/me/play-queue', auth, async (request, reply) =>
    reply.header('cache-control', PRIVATE).send(await queues.read(caller(request))),
  );

  app.put<{ Body: Static<typeof PlayQueueBody> }>(
    '/api/v1/me/play-queue',
    { ...auth, schema: { body: PlayQueueBody } },
    async (request, reply) =>
      reply
        .header('cache-control', PRIVATE)
        .send(await queues.save(caller(request), request.body, request.headers['user-agent'])),
  );
}
