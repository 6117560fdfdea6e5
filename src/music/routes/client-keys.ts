/** /api/v1/me/client-keys: keys for Subsonic clients (made, listed, revoked by their owner). */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { ClientKeyParams, NewClientKeyBody } from '../schemas/client-keys.js';
import type { ClientKeyService } from '../subsonic/client-key-service.js';

export function registerClientKeyRoutes(
  app: FastifyInstance,
  keys: ClientKeyService,
  hooks: AuthHooks,
): void {
  const me = { onRequest: hooks.requireAuth };
  app.post<{ Body: Static<typeof NewClientKeyBody> }>(
    '/api/v1/me/client-keys',
    { ...me, schema: { body: NewClientKeyBody } },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await keys.create(caller(request), request.body.name)),
  );
  app.get('/api/v1/me/client-keys', me, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await keys.list(caller(request))),
  );
  app.delete<{ Params: Static<typeof ClientKeyParams> }>(
    '/api/v1/me/client-keys/:id',
    { ...me, schema: { params: ClientKeyParams } },
    async (request, reply) => {
      await keys.revoke(caller(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
