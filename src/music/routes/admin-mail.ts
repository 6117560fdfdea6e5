/** GET /api/v1/admin/mail/failed: admin only; mails that failed for good and why (no link, no token). */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { adminsOnly } from '../errors/accounts.js';
import type { MailOutbox } from '../repositories/mail-outbox.js';
import { FailedMailQuery } from '../schemas/accounts.js';

export function registerAdminMailRoutes(app: FastifyInstance, outbox: MailOutbox, hooks: AuthHooks): void {
  app.get<{ Querystring: Static<typeof FailedMailQuery> }>(
    '/api/v1/admin/mail/failed',
    {
      schema: { querystring: FailedMailQuery },
      onRequest: hooks.requireAuth,
      preValidation: (request, _reply, done) => {
        done(caller(request).role === 'admin' ? undefined : adminsOnly());
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send({ failed: await outbox.failed(request.query.limit) }),
  );
}
