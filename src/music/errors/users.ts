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

export const pictureTooLarge = (width: number, height: number, maxPixels: number): AppError =>
  new AppError(
    'payload_too_large',
    `This picture is ${width}x${height} pixels (${((width * height) / 1e6).toFixed(1)} megapixels); at most ${maxPixels / 1e6} megapixels (for example ${Math.floor(Math.sqrt(maxPixels))}x${Math.floor(Math.sqrt(maxPixels))}) are accepted: scale it down and send it again.`,
  );

/** More pictures waiting to be encoded than the process keeps in memory. */
/** The account's previous picture is still in the encoder (one at a time per account). */
export const pictureInFlight = (): AppError =>
  new AppError(
    'rate_limited',
    'Your previous picture is still being encoded; send this one when it is done (retry in 5 s).',
    { headers: { 'retry-after': '5' }, extra: { retry_after_seconds: 5 } },
  );

export const picturesBusy = (): AppError =>
  new AppError(
    'unavailable',
    'Many pictures are being encoded right now; send yours again in a few seconds.',
    {
      headers: { 'retry-after': '5' },
    },
  );

export const emptyPicture = (): AppError =>
  new AppError('invalid_input', 'The request body is empty: send the picture.');

export const accountGone = (): AppError =>
  new AppError('unauthorized', 'The account of this session no longer exists.');
