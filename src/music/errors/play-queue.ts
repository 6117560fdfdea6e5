/** Errors of the saved play queue (services/play-queue-service.ts): REST answers; Subsonic maps its own. */
import { AppError } from '../../core/errors.js';

export const tooManyQueueTracks = (max: number, given: number): AppError =>
  new AppError('invalid_input', `A play queue holds at most ${max} tracks; this one would hold ${given}.`, {
    errors: [{ path: '/track_ids', message: `must hold at most ${max} tracks` }],
  });

/** Track ids that name no track the caller may read (unknown, deleted, private, or not yet playable). */
export const unknownQueueTracks = (ids: string[]): AppError =>
  new AppError(
    'unprocessable',
    `${ids.length === 1 ? 'This track id names' : 'These track ids name'} no track you can play: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}. Take ${ids.length === 1 ? 'it' : 'them'} off the queue and save it again.`,
    {
      errors: [{ path: '/track_ids', message: 'must name tracks you can play' }],
      extra: { unknown_track_ids: ids.slice(0, 100) },
    },
  );

/** The current track named by an id the queue does not hold, or by a place past its end. */
export const queueCurrentNotQueued = (path: '/current_id' | '/current_index', count: number): AppError =>
  new AppError(
    'invalid_input',
    count === 0
      ? 'An empty queue has no current track: leave current_id and current_index out.'
      : path === '/current_id'
        ? 'current_id must be one of the queued track_ids (or left out).'
        : `current_index must be 0 to ${count - 1}: the queue holds ${count} track${count === 1 ? '' : 's'}.`,
    { errors: [{ path, message: count === 0 ? 'names no queued track' : 'must name a queued track' }] },
  );

export const queueCurrentMismatch = (): AppError =>
  new AppError(
    'invalid_input',
    'current_index and current_id name different tracks: send the one the queue is at, or only one of them.',
    { errors: [{ path: '/current_index', message: 'must be a place of current_id' }] },
  );
