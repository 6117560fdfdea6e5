/**
 * The error catalogue: every error the services answer with, as RFC 9457 problem details.
 * Handlers throw `AppError`s; one error handler (error-handler.ts) turns them into responses.
 */

export interface FieldError {
  /** JSON pointer (RFC 6901) into the request body, "" for the whole body. */
  path: string;
  message: string;
}

export const ERROR_CATALOGUE = {
  invalid_input: { status: 400, title: 'Invalid input' },
  invalid_json: { status: 400, title: 'Malformed JSON' },
  unauthorized: { status: 401, title: 'Authentication required' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  conflict: { status: 409, title: 'Conflict' },
  gone: { status: 410, title: 'Gone' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  unprocessable: { status: 422, title: 'Unprocessable content' },
  rate_limited: { status: 429, title: 'Too many requests' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  internal: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface AppErrorOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra problem members (e.g. `hint`). */
  extra?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.title = ERROR_CATALOGUE[code].title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: FieldError[];
  [member: string]: unknown;
}

/** The problem document of an AppError (never used for 5xx details: see error-handler.ts). */
export function toProblem(error: AppError): Problem {
  const problem: Problem = {
    type: `urn:problem:${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...error.extra,
  };
  if (error.errors && error.errors.length > 0) problem.errors = error.errors;
  return problem;
}

export function invalidInput(detail: string, errors: FieldError[] = []): AppError {
  return new AppError('invalid_input', detail, { errors });
}

/** Escapes one JSON-pointer reference token (RFC 6901 section 3). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => '/' + pointerToken(t)).join('');
}
