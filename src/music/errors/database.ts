/** Errors of the stores behind the API being down: 503 with Retry-After, never a 500. */
import { AppError } from '../../core/errors.js';

/** The answer to any database outage, whichever client saw it. */
export const databaseUnavailableError = (): AppError =>
  new AppError('unavailable', 'The database is unavailable; retry in a few seconds.', {
    headers: { 'retry-after': '5' },
  });

/** Every connection busy for longer than a transaction may wait to start (Prisma P2028). */
export const databaseBusyError = (): AppError =>
  new AppError('unavailable', 'The database is too busy to answer in time; retry in a few seconds.', {
    headers: { 'retry-after': '5' },
  });

/** A row deleted between reading it and writing it (Prisma P2025): what the request changes is gone. */
export const deletedMeanwhileError = (): AppError =>
  new AppError('not_found', 'What this request changes was deleted meanwhile; nothing was changed.');

/** A track a write names, deleted before the write landed (a foreign-key violation): as a missing track. */
export const trackDeletedMeanwhileError = (): AppError =>
  new AppError(
    'not_found',
    'A track this request names was deleted meanwhile (no track has that id now); nothing was changed.',
  );

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
