/** Errors of comments (services/comment-service.ts). */
import { AppError } from '../../core/errors.js';

export const commentNotFound = (): AppError => new AppError('not_found', 'No comment with this id.');

export const commentBlank = (): AppError =>
  new AppError('invalid_input', 'A comment needs some text.', {
    errors: [{ path: '/body', message: 'must not be blank' }],
  });

/** `end` is the version's duration as a clock (m:ss). */
export const positionPastEnd = (versionNumber: number, end: string): AppError =>
  new AppError('invalid_input', `The position is past the end of version ${versionNumber} (${end}).`, {
    errors: [{ path: '/position_ms', message: `must be within the track: 0:00 to ${end}` }],
  });

export const commentEditForbidden = (): AppError =>
  new AppError('forbidden', "Only the comment's author may edit it.");

export const commentDeleteForbidden = (): AppError =>
  new AppError('forbidden', "Only the comment's author, the track's owner or an admin may delete it.");
