/** Errors of multipart uploads (services/upload-service.ts). */
import { AppError, type FieldError } from '../../core/errors.js';

export const uploadNotFound = (): AppError =>
  new AppError('not_found', 'No unfinished upload with this id (completed, aborted or not yours).');

export const uploadRaced = (): AppError =>
  new AppError('conflict', 'This upload was completed or aborted by another request meanwhile.');

export const uploadTooLarge = (maxBytes: number): AppError =>
  new AppError('payload_too_large', `An upload is at most ${maxBytes} bytes (500 MB).`, {
    errors: [{ path: '/size', message: `must be at most ${maxBytes}` }],
  });

export const tooManyParts = (maxParts: number): AppError =>
  new AppError('invalid_input', `At most ${maxParts} parts; choose a larger part_size.`, {
    errors: [{ path: '/part_size', message: 'gives more than 10000 parts' }],
  });

export const tooManyUnfinishedUploads = (max: number): AppError =>
  new AppError('conflict', `You have ${max} unfinished uploads; complete or abort one first.`);

export const partOutOfRange = (count: number, partNumber: number): AppError =>
  new AppError('invalid_input', `This upload has ${count} parts; part ${partNumber} is out of range.`, {
    errors: [{ path: 'params:/n', message: `must be from 1 to ${count}` }],
  });

export const partLengthWrong = (
  partNumber: number,
  expected: number,
  contentLength: number | undefined,
): AppError =>
  new AppError(
    'invalid_input',
    `Part ${partNumber} must be exactly ${expected} bytes (Content-Length ${contentLength ?? 'missing'}).`,
    { errors: [{ path: 'headers:/content-length', message: `must be ${expected}` }] },
  );

export const partsNotListed = (count: number): AppError =>
  new AppError('invalid_input', `List all ${count} parts, numbered 1 to ${count} in order.`, {
    errors: [{ path: '/parts', message: `must list parts 1..${count} in order` }],
  });

/** A completed upload failed a check (size, sha256, audio type) and was discarded. */
export const uploadDiscarded = (detail: string, errors: FieldError[]): AppError =>
  new AppError('unprocessable', `${detail} The upload was discarded.`, { errors });
