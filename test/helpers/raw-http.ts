/**
 * A bare HTTP client for tests that must control every header (fetch adds Content-Type and
 * Accept-Encoding of its own and decodes answers; curl-like requests need neither).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it came over the wire (still compressed if Content-Encoding says so). */
  wire: Buffer;
  /** The body decoded per Content-Encoding. */
  body: Buffer;
  text(): string;
  json(): unknown;
}

export function decodeBody(encoding: string | undefined, wire: Buffer): Buffer {
  switch (encoding) {
    case undefined:
    case 'identity':
      return wire;
    case 'gzip':
      return zlib.gunzipSync(wire);
    case 'deflate':
      return zlib.inflateSync(wire);
    case 'br':
      return zlib.brotliDecompressSync(wire);
    default:
      throw new Error(`unexpected content-encoding ${encoding}`);
  }
}

export function encodeBody(encoding: 'gzip' | 'deflate' | 'br', plain: Buffer | string): Buffer {
  const bytes = Buffer.from(plain);
  if (encoding === 'gzip') return zlib.gzipSync(bytes);
  if (encoding === 'deflate') return zlib.deflateSync(bytes);
  return zlib.brotliCompressSync(bytes);
}

export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** One request with exactly the headers given (plus Host and Content-Length when a body is sent). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const headers = { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    let answered = false;
    const req = httpRequest(url, { method: options.method ?? 'GET', headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const decoded = decodeBody(res.headers['content-encoding'], wire);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          wire,
          body: decoded,
          text: () => decoded.toString('utf8'),
          json: () => JSON.parse(decoded.toString('utf8')) as unknown,
        });
      });
    });
    // A server may answer (413) and close before the whole body is written: the answer counts.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(body);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request with the path sent exactly as written (no client-side normalisation of `%61`,
 * `//` or `..`), as an attacker's client would send it.
 */
export function rawHttp(
  port: number,
  method: string,
  path: string,
  options: {
    body?: string | Buffer;
    headers?: Record<string, string | number>;
    /** Send the headers and never the body (a size check must answer before it). */
    headersOnly?: boolean;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(options.headers ?? {}) };
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = Buffer.byteLength(options.body);
    }
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    if (options.headersOnly) req.flushHeaders();
    else req.end(options.body);
  });
}
