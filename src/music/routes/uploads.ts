/**
 * /api/v1/upload/multipart/*: init, PUT a part (streamed, filesystem store), list, abort,
 * complete. The part route lives in its own scope: the only large-body route, it takes any
 * content type as a raw stream (never parsed or buffered) under its own body limit.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { CompleteUploadBody, InitUploadBody, PartParams, UploadParams } from '../schemas/uploads.js';
import { UPLOAD_LIMITS, type UploadService } from '../services/upload-service.js';

export function registerUploadRoutes(app: FastifyInstance, uploads: UploadService, hooks: AuthHooks): void {
  const auth = { onRequest: hooks.requireAuth };
  app.post<{ Body: Static<typeof InitUploadBody> }>(
    '/api/v1/upload/multipart/init',
    { ...auth, schema: { body: InitUploadBody } },
    async (request, reply) => reply.code(201).send(await uploads.init(caller(request), request.body)),
  );

  app.post<{ Body: Static<typeof CompleteUploadBody> }>(
    '/api/v1/upload/multipart/complete',
    { ...auth, schema: { body: CompleteUploadBody } },
    async (request) => uploads.complete(caller(request), request.body),
  );

  app.get<{ Params: Static<typeof UploadParams> }>(
    '/api/v1/upload/multipart/:upload_id',
    { ...auth, schema: { params: UploadParams } },
    async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await uploads.status(caller(request), request.params.upload_id)),
  );

  app.delete<{ Params: Static<typeof UploadParams> }>(
    '/api/v1/upload/multipart/:upload_id',
    { ...auth, schema: { params: UploadParams } },
    async (request, reply) => {
      await uploads.abort(caller(request), request.params.upload_id);
      return reply.code(204).send();
    },
  );

  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put<{ Params: Static<typeof PartParams> }>(
      '/api/v1/upload/multipart/:upload_id/parts/:n',
      // A part may take long on a slow link: bounded by a minimum rate, not a total time.
      {
        ...auth,
        bodyLimit: UPLOAD_LIMITS.maxPartSize,
        schema: { params: PartParams },
        config: { bodyTransfer: 'min-rate' },
      },
      async (request) => {
        const length = request.headers['content-length'];
        return uploads.putPart(
          caller(request),
          request.params.upload_id,
          request.params.n,
          length === undefined ? undefined : Number(length),
          request.raw,
        );
      },
    );
    done();
  });
}
