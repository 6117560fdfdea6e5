/** Library imports for admins (docs/library-import.md): start, list, read, pause, resume. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { LibraryImportList, LibraryImportParams, StartLibraryImportBody } from '../schemas/admin.js';
import type { LibraryService } from '../services/library/library-service.js';
import { adminsOnly } from '../errors/auth.js';

type IdRequest = FastifyRequest<{ Params: Static<typeof LibraryImportParams> }>;

export function registerAdminLibraryRoutes(
  app: FastifyInstance,
  library: LibraryService,
  hooks: AuthHooks,
): void {
  const admin = {
    onRequest: hooks.requireAuth,
    // Checked before the input is validated: a non-admin learns nothing about the schema.
    preValidation: (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
      done(caller(request).role === 'admin' ? undefined : adminsOnly());
    },
  };
  const base = '/api/v1/admin/library/imports';
  app.post<{ Body: Static<typeof StartLibraryImportBody> }>(
    base,
    { ...admin, bodyLimit: 8192, schema: { body: StartLibraryImportBody } },
    async (request, reply) =>
      reply
        .code(202)
        .header('cache-control', 'no-store')
        .send(await library.start(caller(request), request.body)),
  );
  app.get<{ Querystring: Static<typeof LibraryImportList> }>(
    base,
    { ...admin, schema: { querystring: LibraryImportList } },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await library.list(request.query.limit)),
  );
  app.get(
    `${base}/:id`,
    { ...admin, schema: { params: LibraryImportParams } },
    async (request: IdRequest, reply) =>
      reply.header('cache-control', 'no-store').send(await library.get(request.params.id)),
  );
  app.post(
    `${base}/:id/pause`,
    { ...admin, bodyLimit: 1024, schema: { params: LibraryImportParams } },
    async (request: IdRequest, reply) =>
      reply.header('cache-control', 'no-store').send(await library.pause(request.params.id)),
  );
  app.post(
    `${base}/:id/resume`,
    { ...admin, bodyLimit: 1024, schema: { params: LibraryImportParams } },
    async (request: IdRequest, reply) =>
      reply.header('cache-control', 'no-store').send(await library.resume(request.params.id)),
  );
}
