/**
 * PostgreSQL breaks a deadlock (40P01) or a serialization conflict (40001) by aborting one of the
 * transactions, which then committed nothing: running it again is safe. The library triggers on
 * `tracks` and `track_versions` take bucket locks statement by statement, so two writers can meet
 * in opposite orders (a track deleted while one of its versions becomes ready); without a retry the
 * one PostgreSQL picked would fail a request or a job for no fault of its own.
 */

const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
/** Tries in all: the loser of a deadlock waits its turn on the second and nearly always passes. */
const ATTEMPTS = 4;

interface AdapterCause {
  originalCode?: string;
  code?: string;
  kind?: string;
}

interface PrismaErrorShape {
  name?: string;
  code?: string;
  cause?: AdapterCause;
  meta?: { driverAdapterError?: { cause?: AdapterCause } };
}

export function isRetryableConflict(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const e = err as PrismaErrorShape;
  if (e.code === 'P2034') return true;
  // Raw queries wrap the adapter's error (P2010); model queries throw it as it is.
  const cause = e.meta?.driverAdapterError?.cause ?? (e.name === 'DriverAdapterError' ? e.cause : undefined);
  if (cause?.kind === 'TransactionWriteConflict') return true;
  return RETRYABLE_SQLSTATES.has(cause?.originalCode ?? cause?.code ?? '');
}

/**
 * Runs `write` (one statement, or a whole `$transaction`: never a statement inside one, whose
 * transaction is already aborted) again when PostgreSQL aborted it to break a conflict.
 */
export async function retryConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= ATTEMPTS || !isRetryableConflict(err)) throw err;
    }
  }
}
