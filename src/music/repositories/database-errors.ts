/**
 * PostgreSQL outages as Prisma reports them (through @prisma/adapter-pg): recognised so that an
 * endpoint needing the database answers 503 with Retry-After instead of a 500. Also the one
 * mapping of Prisma's known request errors a client can meet: a transaction that could not
 * start in time (503) and a row deleted by a concurrent request (404), including a row a write
 * refers to (a foreign-key violation: a track deleted while a playlist, comment or checkout names it).
 */
import { cutText } from '../../core/text-length.js';
import type { AppError } from '../../core/errors.js';
import {
  databaseBusyError,
  databaseUnavailableError,
  deletedMeanwhileError,
  trackDeletedMeanwhileError,
} from '../errors/database.js';

/** Prisma's codes for "cannot reach / lost / timed out / pool exhausted". */
const OUTAGE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1011', 'P1017', 'P2024']);
/** @prisma/driver-adapter-utils error kinds that mean the server is not usable right now. */
const OUTAGE_KINDS = new Set([
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'AuthenticationFailed',
]);

/**
 * SQLSTATEs of a server that is shutting down, restarting or starting up (class 57, operator
 * intervention: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now) or whose
 * connection failed (class 08). The adapter reports them as kind `postgres`, not as an outage.
 */
const OUTAGE_SQLSTATE = /^(57P0[123]|08)/;

interface AdapterCause {
  kind?: string;
  code?: string;
  originalCode?: string;
  constraint?: { index?: string; fields?: string[] };
}

/** The driver adapter's account of an error: in a Prisma error's meta, or the adapter's own error thrown as is. */
function adapterCause(e: {
  name?: string;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: AdapterCause } };
}): AdapterCause | undefined {
  const cause = e.meta?.driverAdapterError?.cause ?? (e.name === 'DriverAdapterError' ? e.cause : undefined);
  return cause !== null && typeof cause === 'object' ? cause : undefined;
}

export function isDatabaseOutage(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const e = err as {
    name?: string;
    code?: string;
    message?: string;
    cause?: unknown;
    meta?: { driverAdapterError?: { cause?: AdapterCause } };
  };
  if (e.name === 'PrismaClientInitializationError') return true;
  if (e.code !== undefined && OUTAGE_CODES.has(e.code)) return true;
  const cause = adapterCause(e);
  if (cause?.kind !== undefined && OUTAGE_KINDS.has(cause.kind)) return true;
  // A restart under load: model queries get the adapter's own error, raw ones P2010, both with the SQLSTATE.
  if (cause?.kind === 'postgres' && OUTAGE_SQLSTATE.test(cause.code ?? '')) return true;
  // $queryRaw wraps the adapter's error as P2010 with the reason only in the text.
  return (
    e.code === 'P2010' && /Can't reach database server|Connection terminated|timeout/i.test(e.message ?? '')
  );
}

/** The answer to any database outage, whichever client saw it: 503 with Retry-After. */
export { databaseUnavailableError };

/** Prisma's transaction API errors: unable to start in the given time, or expired before its commit. */
const TRANSACTION_TIMEOUT = 'P2028';
/** pg-pool's answer when every connection stayed busy for connectionTimeoutMillis. */
const POOL_EXHAUSTED = /^timeout exceeded when trying to connect$/;
/** Prisma's "An operation failed because it depends on one or more records that were required but not found". */
const RECORD_NOT_FOUND = 'P2025';

/** PostgreSQL's foreign_key_violation, as pg reports it and as the adapter passes it on (P2003, or P2010 from raw SQL). */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The constraint a write broke when it referred to a row that is not there (pg's `constraint`,
 * the adapter's index or fields), "" when the constraint is unnamed; undefined when `err` is no such violation.
 */
function foreignKeyViolated(err: object): string | undefined {
  const e = err as {
    name?: string;
    code?: unknown;
    constraint?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: { cause?: AdapterCause } };
  };
  if (e.code === FOREIGN_KEY_VIOLATION) return typeof e.constraint === 'string' ? e.constraint : '';
  const cause = adapterCause(e);
  if (cause?.kind !== 'ForeignKeyConstraintViolation' && cause?.originalCode !== FOREIGN_KEY_VIOLATION)
    return undefined;
  return cause.constraint?.index ?? cause.constraint?.fields?.join(',') ?? '';
}

/** A write's reference to a track (`<table>_track_id_fkey`, or the track_id column itself). */
const TRACK_REFERENCE = /(^|_)track_id(_fkey)?$/;

/** The answer to a database error a client can meet (the app's error classifier), else undefined. */
export function classifyDatabaseError(err: unknown): AppError | undefined {
  if (isDatabaseOutage(err)) return databaseUnavailableError();
  const code = err !== null && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  if (code === TRANSACTION_TIMEOUT || (err instanceof Error && POOL_EXHAUSTED.test(err.message)))
    return databaseBusyError();
  if (code === RECORD_NOT_FOUND) return deletedMeanwhileError();
  // The service found the row before writing; a foreign-key violation means it was deleted since.
  const constraint = err !== null && typeof err === 'object' ? foreignKeyViolated(err) : undefined;
  if (constraint !== undefined)
    return TRACK_REFERENCE.test(constraint) ? trackDeletedMeanwhileError() : deletedMeanwhileError();
  return undefined;
}

/** The one line of a Prisma error that says what went wrong (its message starts with a newline). */
export function databaseErrorLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines.at(-1) ?? (err instanceof Error ? err.name : 'unknown error');
  const reason = /Message: `(.*)`$/.exec(last)?.[1] ?? last;
  return cutText(reason, 500);
}
