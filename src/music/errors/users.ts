/** Errors of accounts and profiles. */
import { AppError } from '../../core/errors.js';

export const userNotFound = (handle: string): AppError =>
  new AppError('not_found', `No user with the handle "${handle}".`);

export const emailTaken = (): AppError =>
  new AppError('conflict', 'An account with this email already exists.', {
    errors: [{ path: '/email', message: 'is already registered' }],
  });

export const handleTaken = (handle: string): AppError =>
  new AppError('conflict', `The handle "${handle}" is already taken.`, {
    errors: [{ path: '/handle', message: 'is already taken' }],
  });
