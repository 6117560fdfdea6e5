/** Errors of library imports (services/library/, the admin API and the CLI). */
import { AppError } from '../../core/errors.js';

export const importBusy = (): AppError =>
  new AppError(
    'conflict',
    'Another process is running this import now (its last heartbeat is under 10 s old); wait for it, or pause it first.',
  );

export const importNotFound = (): AppError => new AppError('not_found', 'No library import with this id.');

export const importNotPausable = (status: string): AppError =>
  new AppError('conflict', `This import is ${status}; only a queued or running import can be paused.`);

export const importNotResumable = (status: string): AppError =>
  new AppError('conflict', `This import is ${status}; only a paused import can be resumed.`);

export const ownerNotFound = (handle: string): AppError =>
  new AppError('invalid_input', `No account with the handle "${handle}".`, {
    errors: [{ path: '/owner', message: 'is no account' }],
  });

export const folderNotAllowed = (roots: readonly string[]): AppError =>
  new AppError(
    'invalid_input',
    roots.length === 0
      ? 'Imports through the API are off: set LIBRARY_IMPORT_ROOTS to the folders it may read (or use the CLI).'
      : `The folder must be inside one of LIBRARY_IMPORT_ROOTS: ${roots.join(', ')}.`,
    { errors: [{ path: '/directory', message: 'is outside the allowed folders' }] },
  );

export const folderUnreadable = (reason: string): AppError =>
  new AppError('invalid_input', `The folder cannot be imported: ${reason}.`, {
    errors: [{ path: '/directory', message: reason }],
  });

/** The CLI's --in-place outside the roots: the API and workers read such files, so only from there. */
export const inPlaceOutsideRoots = (roots: readonly string[]): AppError =>
  new AppError(
    'invalid_input',
    roots.length === 0
      ? 'Reading in place needs LIBRARY_IMPORT_ROOTS: set it (in every music process: the API and the workers read the files from there) to folders holding this one, or import without --in-place to copy the files.'
      : `Reading in place needs the folder inside one of LIBRARY_IMPORT_ROOTS (${roots.join(', ')}), the folders the API and the workers read the files from; or import without --in-place to copy the files.`,
    { errors: [{ path: '/in_place', message: 'the folder is outside LIBRARY_IMPORT_ROOTS' }] },
  );
