/**
 * The HTTP layer's errors, shared by both services: bodies that are not the JSON they claim,
 * framing and limits, routes and methods, rate limits, the web front-end's files.
 */
import { AppError, type ErrorCode } from '../errors.js';

// Request bodies.
export const emptyJsonBody = () =>
  new AppError('invalid_json', 'The request body is empty; a JSON object is required.');
export const prototypeKeyInBody = () =>
  new AppError(
    'invalid_json',
    'The request body has a "__proto__" or "constructor.prototype" key, which is refused (it could alter objects on the server); remove it.',
  );
export const invalidJsonBody = (reason: string) =>
  new AppError('invalid_json', `The request body is not valid JSON: ${reason}.`);
/** Fastify's own parser drops the reason; a prototype key is the one valid-JSON cause. */
export const invalidJsonOrPrototypeKey = () =>
  new AppError(
    'invalid_json',
    'The request body is not valid JSON, or it has a "__proto__" or "constructor.prototype" key, which is refused (it could alter objects on the server).',
  );
export const bodyNotUtf8 = () =>
  new AppError(
    'invalid_json',
    'The request body is not valid UTF-8 (it holds a byte sequence UTF-8 does not allow); send the JSON encoded as UTF-8.',
  );
export const sendJson = () => new AppError('unsupported_media_type', 'Send the body as application/json.');
/** A byte count as a person reads it: "10 MB (10485760 bytes)", "8 KB (8192 bytes)". */
function byteLimitText(bytes: number): string {
  const units: [number, string][] = [
    [1024 * 1024 * 1024, 'GB'],
    [1024 * 1024, 'MB'],
    [1024, 'KB'],
  ];
  const [size, unit] = units.find(([n]) => bytes >= n) ?? [1, 'bytes'];
  const amount = Number((bytes / size).toFixed(1));
  return unit === 'bytes' ? `${bytes} bytes` : `${amount} ${unit} (${bytes} bytes)`;
}

export const bodyTooLarge = (limit?: number) =>
  new AppError(
    'payload_too_large',
    limit === undefined
      ? 'The request body is larger than the limit of this endpoint.'
      : `The request body is larger than this endpoint's limit of ${byteLimitText(limit)}; send a smaller one.`,
  );
/** A multipart form sent to a route that reads JSON. */
export const multipartNotJson = (type: string) =>
  new AppError(
    'unsupported_media_type',
    `This endpoint reads a JSON body, not ${type}: send the fields as a JSON object (Content-Type: application/json).`,
  );
export const contentLengthMismatch = () =>
  new AppError('invalid_input', 'Content-Length does not match the body.');
/** A 4xx Fastify or a plugin raised, passed on in its own words. */
export const frameworkClientError = (code: ErrorCode, message: string) => new AppError(code, message);

// Compressed bodies.
export const encodingNotAccepted = (header: string, accepted: string) =>
  new AppError(
    'unsupported_media_type',
    `Content-Encoding "${header}" is not accepted; send the body uncompressed or as one of: ${accepted}.`,
    { headers: { 'accept-encoding': accepted } },
  );
export const inflatesTooLarge = (limit: number) =>
  new AppError(
    'payload_too_large',
    `The request body inflates to more than this endpoint's limit of ${limit} bytes (the limit counts the decompressed size).`,
  );
export const badCompressedBody = (coding: string, reason: string) =>
  new AppError(
    'invalid_input',
    `The request body is not valid ${coding} data (${reason}); compress it with the coding named in Content-Encoding.`,
  );

// Framing, time and connection limits.
export const requestTimeout = (reason: string) =>
  new AppError('request_timeout', `Request timeout: ${reason}; send it again.`);
export const requestNotReceivedInTime = () =>
  new AppError('request_timeout', 'The request was not received in time; send it again.');
export const tooManyConnections = (limit: number) =>
  new AppError(
    'rate_limited',
    `This client address already holds ${limit} open connections; reuse one (keep-alive) or close some.`,
  );
/** A path fastify could not decode: a "%" without two hex digits, or escapes that are not UTF-8. */
export const badPathEncoding = (url = '') => {
  const path = url.split('?')[0] ?? '';
  const bare = /%(?![0-9A-Fa-f]{2})/.exec(path);
  return new AppError(
    'invalid_input',
    bare || path === ''
      ? 'The request path has a "%" not followed by two hexadecimal digits; write a literal % as %25.'
      : `The request path's percent-encoding (${[...new Set(path.match(/%[0-9A-Fa-f]{2}/g) ?? [])].slice(0, 5).join(' ')}) does not spell UTF-8 text; percent-encode each character's UTF-8 bytes.`,
  );
};
export const pathSegmentTooLong = () =>
  new AppError('uri_too_long', 'A segment of the request path is too long for any route.');
export const headersTooLarge = () =>
  new AppError(
    'headers_too_large',
    'The request headers are larger than the server accepts; send fewer or shorter headers (cookies included).',
  );
export const malformedHttp = () =>
  new AppError(
    'invalid_input',
    'The request is not well-formed HTTP/1.1 (request line, header syntax or framing); send a valid HTTP request.',
  );

// Routes, access and rate limits.
export const noRoute = (method: string, path: string) =>
  new AppError('not_found', `No route for ${method} ${path}.`);
export const methodNotAllowed = (method: string, path: string, allow: string) =>
  new AppError('method_not_allowed', `${method} is not allowed on ${path}; it takes ${allow}.`, {
    headers: { allow },
  });
export const metricsForbidden = () =>
  new AppError(
    'forbidden',
    'Metrics are served only to the configured scrapers (METRICS_SCRAPERS; loopback by default), directly, not through a proxy.',
  );
export const rateLimited = (scope: string, seconds: number) =>
  new AppError('rate_limited', `Rate limit of the "${scope}" scope exceeded; retry in ${seconds} s.`, {
    headers: { 'retry-after': String(seconds) },
    extra: { retry_after_seconds: seconds },
  });

// The built web front-end.
export const WEB_NOT_BUILT = 'The web front-end is not built on this server: run `make build`.';
export const webNotBuilt = () => new AppError('not_found', WEB_NOT_BUILT);
export const webFileNotBuilt = (file: string) =>
  new AppError('not_found', `No file ${file}: the web front-end is not built.`);
