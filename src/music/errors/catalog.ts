/** Errors of the catalogue (artists, albums) and of paging through lists. */
import { AppError } from '../../core/errors.js';

export const artistNotFound = (): AppError =>
  new AppError('not_found', 'No artist with this id (or none of their tracks is public).');

export const albumNotFound = (): AppError =>
  new AppError('not_found', 'No album with this id (or none of its tracks is public).');

export const invalidCursor = (): AppError =>
  new AppError(
    'invalid_input',
    'The cursor is not one this API gave out; use next_cursor from the previous page.',
    {
      errors: [{ path: 'querystring:/cursor', message: 'is not a valid cursor' }],
    },
  );
