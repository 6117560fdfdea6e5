/** /api/v1/playlists and /api/v1/me/playlists: the Subsonic playlists, for the web player. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import {
  CreatePlaylistBody,
  PlaylistPageQuery,
  PlaylistParams,
  UpdatePlaylistBody,
} from '../schemas/playlists.js';
import type { PlaylistService } from '../services/playlist-service.js';

type Params = { Params: Static<typeof PlaylistParams> };
const PRIVATE = 'private, no-store';

export function registerPlaylistRoutes(
  app: FastifyInstance,
  playlists: PlaylistService,
  hooks: AuthHooks,
): void {
  const auth = { onRequest: hooks.requireAuth };

  app.get('/api/v1/me/playlists', auth, async (request, reply) =>
    reply.header('cache-control', PRIVATE).send(await playlists.mine(caller(request))),
  );

  app.post<{ Body: Static<typeof CreatePlaylistBody> }>(
    '/api/v1/playlists',
    { ...auth, schema: { body: CreatePlaylistBody } },
    async (request, reply) => reply.code(201).send(await playlists.create(caller(request), request.body)),
  );

  // A public playlist's songs differ per caller (their own private ones): never in a shared cache.
  app.get<Params & { Querystring: Static<typeof PlaylistPageQuery> }>(
    '/api/v1/playlists/:id',
    { onRequest: hooks.optionalAuth, schema: { params: PlaylistParams, querystring: PlaylistPageQuery } },
    async (request, reply) =>
      reply
        .header('cache-control', PRIVATE)
        .send(await playlists.view(request.auth, request.params.id, request.query)),
  );

  app.get<Params & { Querystring: Static<typeof PlaylistPageQuery> }>(
    '/api/v1/playlists/:id/tracks',
    { onRequest: hooks.optionalAuth, schema: { params: PlaylistParams, querystring: PlaylistPageQuery } },
    async (request, reply) =>
      reply
        .header('cache-control', PRIVATE)
        .send(await playlists.tracks(request.auth, request.params.id, request.query)),
  );

  app.patch<Params & { Body: Static<typeof UpdatePlaylistBody> }>(
    '/api/v1/playlists/:id',
    { ...auth, schema: { params: PlaylistParams, body: UpdatePlaylistBody } },
    async (request) => playlists.update(caller(request), request.params.id, request.body),
  );

  app.delete<Params>(
    '/api/v1/playlists/:id',
    { ...auth, schema: { params: PlaylistParams } },
    async (request, reply) => {
      await playlists.deleteOwn(caller(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
