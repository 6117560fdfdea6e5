/** Errors of the object stores (repositories/object-store/). */
import { cutText } from '../../core/text-length.js';
import { AppError } from '../../core/errors.js';

export const objectNotFound = (key: string, store: string): AppError =>
  new AppError('not_found', `No object ${key} in the ${store} store.`);

/** An upload id of a shape the store never gives out. */
export const malformedMultipartUpload = (): AppError =>
  new AppError('not_found', 'No such multipart upload.');

export const multipartUploadNotFound = (): AppError =>
  new AppError('not_found', 'No such multipart upload (completed, aborted or never started).');

export const multipartUploadOfOtherKey = (): AppError =>
  new AppError('not_found', 'No such multipart upload for this key.');

export const partSizeMismatch = (partNumber: number, expected: number, received: number): AppError =>
  new AppError(
    'invalid_input',
    `Part ${partNumber} must be ${expected} bytes; ${received > expected ? 'more were' : `${received} were`} sent.`,
  );

export const partNeverUploaded = (partNumber: number): AppError =>
  new AppError('invalid_input', `Part ${partNumber} was never uploaded.`);

export const partEtagMismatch = (partNumber: number): AppError =>
  new AppError('invalid_input', `Part ${partNumber}: the etag does not match the uploaded part.`);

export const partsRefused = (reason: string): AppError =>
  new AppError('invalid_input', `The object store refused the parts: ${reason}`);

export const invalidObjectKey = (key: string): AppError =>
  new AppError('invalid_input', `Object key ${JSON.stringify(cutText(key, 100))} is not a valid key.`);

export const imageTypeRefused = (name: string): AppError =>
  new AppError(
    'unsupported_media_type',
    `The images store holds JPEG, PNG and WebP images only; ${JSON.stringify(cutText(name, 100))} is refused (SVG and other document types can carry scripts).`,
  );

export const noParts = (): AppError =>
  new AppError('invalid_input', 'A multipart upload needs at least one part.');

export const partNumberOutOfRange = (index: number): AppError =>
  new AppError('invalid_input', `Part ${index}: part_number must be an integer from 1 to 10000.`);

export const partsOutOfOrder = (): AppError =>
  new AppError('invalid_input', 'Parts must be listed in ascending part_number order without repeats.');

/** A bug, never a client's doing: nothing writes over, or moves, a library file read in place. */
export const inPlaceNotWritable = (): Error =>
  new Error('An in-place library file is read only: the store never writes, moves or deletes it.');
