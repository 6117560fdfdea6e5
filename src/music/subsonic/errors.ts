/**
 * The Subsonic API's error catalogue: the spec's codes, the error a Subsonic client is answered
 * with (an error document, HTTP 200 unless said otherwise), every message it can carry, and the
 * platform errors of client keys (the credentials Subsonic clients log in with).
 */
import { cutText } from '../../core/text-length.js';
import { AppError } from '../../core/errors.js';

/** The spec's error codes (content/en/docs/Responses/error.md). */
export const ERROR_CODES = {
  generic: 0,
  missingParameter: 10,
  wrongCredentials: 40,
  tokenNotSupported: 41,
  mechanismNotSupported: 42,
  conflictingMechanisms: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  notFound: 70,
} as const;

/** An error answered as a Subsonic error document (HTTP 200 unless `httpStatus` says otherwise). */
export class SubsonicError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus = 200,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SubsonicError';
  }
}

// Parameters
export const missingParameter = (name: string): SubsonicError =>
  new SubsonicError(ERROR_CODES.missingParameter, `Required parameter is missing: ${name}`);
export const badParameter = (name: string, why: string): SubsonicError =>
  new SubsonicError(ERROR_CODES.generic, `Parameter ${name}: ${why}`);
/** `kind` says what came instead of text: "null", "a list of lists", "a number"... */
export const parameterNotText = (name: string, kind: string): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.missingParameter,
    `Parameter ${cutText(name, 60)} must be text (got ${kind}); send every parameter as a string`,
  );

// Bodies (formPost: application/x-www-form-urlencoded only)
export const formNotUtf8 = (): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.generic,
    'The form body is not UTF-8 (it holds a byte sequence UTF-8 does not allow); percent-encode each parameter as its UTF-8 bytes',
  );
export const jsonBodyNotObject = (): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.generic,
    'A JSON body must be an object of parameters, such as {"apiKey": "…", "id": "…"}',
  );
export const bodyNotForm = (type: string): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.generic,
    `A ${cutText(type, 60) || 'body without a type'} body is not read: send parameters in the query string or as an application/x-www-form-urlencoded body`,
  );

// Lookups and permissions
export const notFound = (what: string): SubsonicError =>
  new SubsonicError(ERROR_CODES.notFound, `${what} not found`);
export const notYourUser = (): SubsonicError =>
  new SubsonicError(ERROR_CODES.notAuthorized, 'You may only read your own user');
export const unsupportedEndpoint = (name: string): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.generic,
    `Unsupported endpoint: ${cutText(name, 60) || '(no endpoint)'} is not an endpoint of this server`,
    404,
  );

// Authentication
export const wrongCredentials = (): SubsonicError =>
  new SubsonicError(ERROR_CODES.wrongCredentials, 'Wrong username or password');
export const invalidApiKey = (): SubsonicError =>
  new SubsonicError(ERROR_CODES.invalidApiKey, 'Invalid API key');
export const apiKeyWithPassword = (): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.conflictingMechanisms,
    'Multiple conflicting authentication mechanisms provided: send apiKey without u, p, t or s',
  );
export const passwordWithToken = (): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.conflictingMechanisms,
    'Multiple conflicting authentication mechanisms provided: send either p, or t and s',
  );
export const tokenInfoNeedsApiKey = (): SubsonicError =>
  new SubsonicError(ERROR_CODES.mechanismNotSupported, 'tokenInfo answers for apiKey authentication only');
/** A rate limit: HTTP 429 with Retry-After, the document saying what was limited. */
export const tooManyRequests = (what: string, seconds: number): SubsonicError =>
  new SubsonicError(ERROR_CODES.generic, `${what}; retry in ${seconds} s`, 429, {
    'retry-after': String(seconds),
  });

/** Seconds a client refused an on-demand encode waits before asking again. */
const ENCODE_RETRY_SECONDS = 5;
/** The caller already has their share of on-demand encodes (seeks, first capped bitrates) running. */
export const tooManyEncodes = (perUser: number): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.generic,
    `You already have ${perUser} streams being transcoded (timeOffset or a new maxBitRate); close one or stream without them, and retry in ${ENCODE_RETRY_SECONDS} s`,
    429,
    { 'retry-after': String(ENCODE_RETRY_SECONDS) },
  );
/** Every on-demand encode slot of this server is taken. */
export const encodesBusy = (): SubsonicError =>
  new SubsonicError(
    ERROR_CODES.generic,
    `The server is transcoding as many streams as it can (timeOffset or a new maxBitRate); stream without them, or retry in ${ENCODE_RETRY_SECONDS} s`,
    503,
    { 'retry-after': String(ENCODE_RETRY_SECONDS) },
  );

/** The client closed its request while it waited for an encode slot: answered to no one, logged as nothing. */
export const closedWhileWaiting = (): SubsonicError =>
  new SubsonicError(ERROR_CODES.generic, 'The request was closed before its stream started');

/** HTTP errors that keep their HTTP meaning (ranges, limits, outages); the rest become Subsonic errors. */
export function asSubsonicError(err: unknown): SubsonicError | undefined {
  if (err instanceof SubsonicError) return err;
  if (!(err instanceof AppError)) return undefined;
  if (err.status === 404) return new SubsonicError(ERROR_CODES.notFound, err.message);
  if (err.status === 403) return new SubsonicError(ERROR_CODES.notAuthorized, err.message);
  if (err.status === 400 || err.status === 409 || err.status === 410 || err.status === 422)
    return new SubsonicError(ERROR_CODES.generic, err.message);
  return undefined;
}

// Client keys (REST /api/v1/client-keys)
export const tooManyClientKeys = (max: number): AppError =>
  new AppError('conflict', `You already have ${max} client keys; revoke one you no longer use first.`);
export const clientKeyNotFound = (): AppError =>
  new AppError('not_found', 'You have no client key with this id.');
