/**
 * GET /media/hls/* (signed), /images/* and /waveforms/*: each also as readable as its track for
 * the caller (a bearer token or the player's cookie, else anonymous). GET /media/access/<the
 * media request's raw URI>: the edge's check before it serves cached bytes of any of them (204 or
 * the media route's own refusal; nginx sends it, and answers 404 to a client asking for it).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthHooks } from '../auth-hook.js';
import { mediaObjectNotFound } from '../errors/media.js';
import {
  IMAGES_MOUNT,
  WAVEFORMS_MOUNT,
  type MediaDelivery,
  type ObjectMount,
} from '../services/media-delivery.js';
import type { MediaAnswer } from '../services/ranged-object.js';

function send(reply: FastifyReply, answer: MediaAnswer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

const single = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The check's prefix before the media request's URI, exactly as nginx writes it (docker/nginx). */
const MEDIA_ACCESS_PREFIX = '/media/access';
const OBJECT_MOUNTS: readonly ObjectMount[] = [IMAGES_MOUNT, WAVEFORMS_MOUNT];

export function registerMediaRoutes(app: FastifyInstance, delivery: MediaDelivery, hooks: AuthHooks): void {
  const viewer = { onRequest: hooks.optionalAuth };
  const linkQuery = (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    return { sig: single(query.sig), expires: single(query.expires) };
  };
  app.get('/media/hls/*', viewer, async (request, reply) =>
    send(reply, await delivery.hls(request.url, linkQuery(request), request.headers.range, request.auth)),
  );
  app.get(`${MEDIA_ACCESS_PREFIX}/*`, viewer, async (request, reply) => {
    // The media URI follows the prefix as sent (raw): decoded and checked once, by the same rule.
    if (!request.url.startsWith(`${MEDIA_ACCESS_PREFIX}/`)) throw mediaObjectNotFound();
    const rawUrl = request.url.slice(MEDIA_ACCESS_PREFIX.length);
    const mount = OBJECT_MOUNTS.find((m) => rawUrl.startsWith(m));
    const access = mount
      ? await delivery.objectAccess(mount, rawUrl, request.auth)
      : await delivery.hlsAccess(rawUrl, linkQuery(request), request.auth);
    return reply.code(access.status).headers(access.headers).send();
  });
  // Images are compressed already; the compressor would still take SVG (mime-db calls it text).
  app.get('/images/*', { ...viewer, compress: false }, async (request, reply) =>
    send(reply, await delivery.publicObject(IMAGES_MOUNT, request.url, request.headers.range, request.auth)),
  );
  app.get('/waveforms/*', viewer, async (request, reply) =>
    send(
      reply,
      await delivery.publicObject(WAVEFORMS_MOUNT, request.url, request.headers.range, request.auth),
    ),
  );
}
