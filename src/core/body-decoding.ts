/**
 * Compressed request bodies (Content-Encoding gzip, deflate, br) on every route that takes a
 * body. The route's body limit applies to the DECODED size, counted while inflating: past the
 * limit the decoder is destroyed at once, so a bomb costs at most `limit` bytes of output and
 * never the gigabytes it would inflate to. Handlers and parsers only ever see decoded bytes.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppError } from './errors.js';
import { badCompressedBody, encodingNotAccepted, inflatesTooLarge } from './errors/http.js';

/** What a client may send, in the order named to it (RFC 9110 section 8.4, RFC 7694). */
export const REQUEST_ENCODINGS = ['gzip', 'deflate', 'br'] as const;

const ACCEPTED = REQUEST_ENCODINGS.join(', ');
// 64 KB output chunks: a quarter of the 'data' events of zlib's 16 KB default on big bodies.
const CHUNK = 64 * 1024;

const DECODERS = new Map<string, () => Transform>([
  ['gzip', () => zlib.createGunzip({ chunkSize: CHUNK })],
  ['x-gzip', () => zlib.createGunzip({ chunkSize: CHUNK })],
  ['deflate', () => zlib.createInflate({ chunkSize: CHUNK })],
  ['br', () => zlib.createBrotliDecompress({ chunkSize: CHUNK })],
]);

/** The decoded body stream; fastify reads `receivedEncodedLength` to check Content-Length. */
type DecodedBody = Readable & { receivedEncodedLength: number };

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function unsupportedEncoding(header: string): AppError {
  return encodingNotAccepted(header, ACCEPTED);
}

function tooLarge(limit: number): AppError {
  return inflatesTooLarge(limit);
}

function corrupt(coding: string, err: Error): AppError {
  return badCompressedBody(coding, err.message);
}

/**
 * raw -> decoder -> counter. Not stream.pipeline: it would destroy the request on error, and
 * with it the socket the 413 must be written to; the request is only unpiped and left paused.
 */
function decode(raw: Readable, makeDecoder: () => Transform, coding: string, limit: number): DecodedBody {
  const decoder = makeDecoder();
  let decoded = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback) {
      decoded += chunk.length;
      if (decoded > limit) return callback(tooLarge(limit));
      callback(null, chunk);
    },
  }) as Transform & DecodedBody;
  counter.receivedEncodedLength = 0;
  const stop = (): void => {
    raw.unpipe(decoder);
    raw.pause();
    decoder.destroy();
  };
  raw.on('data', (chunk: Buffer) => {
    counter.receivedEncodedLength += chunk.length;
  });
  decoder.on('error', (err) => {
    stop();
    counter.destroy(corrupt(coding, err));
  });
  counter.on('error', stop);
  raw.pipe(decoder).pipe(counter);
  return counter;
}

export function registerRequestDecoding(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const header = request.headers['content-encoding'];
    if (header === undefined || !hasBody(request)) return done(null, payload);
    const coding = header.trim().toLowerCase();
    if (coding === '' || coding === 'identity') return done(null, payload);
    const makeDecoder = DECODERS.get(coding);
    if (!makeDecoder) return done(unsupportedEncoding(header));
    done(null, decode(payload, makeDecoder, coding, request.routeOptions.bodyLimit));
  });
}
