/** GET /api/v1/me/sessions; DELETE /api/v1/me/sessions/:id ends one, DELETE /api/v1/me/sessions all. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { SessionParams } from '../schemas/accounts.js';
import type { SessionService } from '../services/session-service.js';
import { clearSessionCookie } from '../session-cookie.js';
import { assertNoBodyFields } from '../validation.js';

export function registerSessionRoutes(
  app: FastifyInstance,
  sessions: SessionService,
  hooks: AuthHooks,
): void {
  const auth = { onRequest: hooks.requireAuth };
  app.get('/api/v1/me/sessions', auth, async (request, reply) =>
    reply.header('cache-control', 'no-store').send({ sessions: await sessions.list(caller(request)) }),
  );

  app.delete<{ Params: Static<typeof SessionParams> }>(
    '/api/v1/me/sessions/:id',
    { ...auth, schema: { params: SessionParams } },
    async (request, reply) => {
      assertNoBodyFields(request.body);
      if (await sessions.end(caller(request), request.params.id.toLowerCase())) clearSessionCookie(reply);
      return reply.code(204).send();
    },
  );

  app.delete('/api/v1/me/sessions', auth, async (request, reply) => {
    assertNoBodyFields(request.body);
    await sessions.endAll(caller(request).userId);
    clearSessionCookie(reply);
    return reply.code(204).send();
  });
}
