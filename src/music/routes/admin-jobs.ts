/** POST /api/v1/admin/jobs/retry {queue, limit}: admin only; retries failed jobs of one queue. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { RetryJobsBody } from '../schemas/admin.js';
import type { JobAdminService } from '../services/job-admin-service.js';
import { adminsOnly } from '../errors/auth.js';

export function registerAdminJobRoutes(app: FastifyInstance, jobs: JobAdminService, hooks: AuthHooks): void {
  app.post<{ Body: Static<typeof RetryJobsBody> }>(
    '/api/v1/admin/jobs/retry',
    {
      bodyLimit: 4096,
      schema: { body: RetryJobsBody },
      onRequest: hooks.requireAuth,
      // Checked before the body is validated: a non-admin learns nothing about the schema.
      preValidation: (request, _reply, done) => {
        done(caller(request).role === 'admin' ? undefined : adminsOnly());
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await jobs.retryFailed(request.body)),
  );
}
