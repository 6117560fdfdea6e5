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

export const notAPicture = (found: string): AppError =>
  new AppError(
    'unsupported_media_type',
    `This file is ${found}, not a picture: send a PNG, JPEG, WebP, GIF or BMP image.`,
  );

export const emptyPicture = (): AppError =>
  new AppError('invalid_input', 'The request body is empty: send the picture.');

export const accountGone = (): AppError =>
  new AppError('unauthorized', 'The account of this session no longer exists.');
