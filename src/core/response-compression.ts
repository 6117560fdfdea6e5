/**
 * Compressed responses (@fastify/compress): br or gzip as the client's Accept-Encoding allows,
 * above a threshold, with `Vary: Accept-Encoding`; never for media that is already compressed
 * (audio, video, images, HLS segments) nor for ranges. Levels: the lowest server CPU plus
 * transfer time (docs/eval-service.md, "Bodies on the wire").
 */
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** gzip level and brotli quality; see bench/results/compression.md for the figures. */
export const GZIP_LEVEL = 1;
export const BROTLI_QUALITY = 1;
/** Below about one TCP segment, compressing saves no round trip and costs a zlib context. */
export const COMPRESS_THRESHOLD = 1024;

/** Text-like types only; everything else (audio/*, video/*, image/*, octet-stream) goes as is. */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:[a-z0-9.+-]*\+)?(?:json|xml)(?:;|$)|application\/(?:javascript|vnd\.apple\.mpegurl|x-mpegurl)(?:;|$))/i;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

/**
 * Called directly rather than through register(): fastify runs onRoute hooks when a route is
 * declared, and register() would load the plugin only at ready, after the services' root-level
 * routes. The plugin is fastify-plugin wrapped (root scope either way), so nothing else differs.
 * The plugin falls back to mime-db for types this predicate refuses (it calls SVG and
 * octet-stream compressible), so routes that serve images opt out with `compress: false`.
 */
export function registerResponseCompression(app: FastifyInstance): void {
  const options: FastifyCompressOptions = {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    customTypes: isCompressible,
    zlibOptions: { level: GZIP_LEVEL },
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    // Request bodies are decoded by body-decoding.ts, which bounds the decoded size.
    globalDecompression: false,
  };
  fastifyCompress(app, options, (err?: Error) => {
    if (err) throw err;
  });
}
