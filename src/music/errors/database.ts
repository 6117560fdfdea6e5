/** Errors of the stores behind the API being down: 503 with Retry-After, never a 500. */
import { AppError } from '../../core/errors.js';

/** The answer to any database outage, whichever client saw it. */
export const databaseUnavailableError = (): AppError =>
  new AppError('unavailable', 'The database is unavailable; retry in a few seconds.', {
    headers: { 'retry-after': '5' },
  });

export const queuesUnavailable = (cause: unknown): AppError => {
  const error = new AppError(
    'unavailable',
    'The job queues (Redis) are not answering; retry in a few seconds.',
    {
      headers: { 'retry-after': '5' },
    },
  );
  error.cause = cause;
  return error;
};
