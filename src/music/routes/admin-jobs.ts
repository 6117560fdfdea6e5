/** POST /api/v1/admin/jobs/retry {queue, limit}: admin only; retries failed jobs of one queue. */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { RetryJobsBody } from '../schemas/admin.js';
import { requireAdmin } from '../services/admin-access.js';
import type { AuthService } from '../services/auth-service.js';
import type { JobAdminService } from '../services/job-admin-service.js';

export function registerAdminJobRoutes(app: FastifyInstance, jobs: JobAdminService, auth: AuthService): void {
  app.post<{ Body: Static<typeof RetryJobsBody> }>(
    '/api/v1/admin/jobs/retry',
    {
      bodyLimit: 4096,
      schema: { body: RetryJobsBody },
      // Authenticate before the body is validated: a stranger learns nothing about the schema.
      preValidation: async (request) => requireAdmin(auth, request.headers.authorization),
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await jobs.retryFailed(request.body)),
  );
}
