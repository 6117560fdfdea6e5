/**
 * GET /media/hls/* (signed), /images/* and /waveforms/*: each also as readable as its track for
 * the caller (a bearer token or the player's cookie, else anonymous).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AuthHooks } from '../auth-hook.js';
import { IMAGES_MOUNT, WAVEFORMS_MOUNT, type MediaDelivery } from '../services/media-delivery.js';
import type { MediaAnswer } from '../services/ranged-object.js';

function send(reply: FastifyReply, answer: MediaAnswer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

const single = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function registerMediaRoutes(app: FastifyInstance, delivery: MediaDelivery, hooks: AuthHooks): void {
  const viewer = { onRequest: hooks.optionalAuth };
  app.get('/media/hls/*', viewer, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    return send(
      reply,
      await delivery.hls(
        request.url,
        { sig: single(query.sig), expires: single(query.expires) },
        request.headers.range,
        request.auth,
      ),
    );
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
