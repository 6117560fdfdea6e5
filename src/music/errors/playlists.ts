/** Errors of playlists (services/playlist-service.ts): REST answers; Subsonic maps its own. */
import { AppError } from '../../core/errors.js';

export const playlistNotFound = (): AppError =>
  new AppError('not_found', 'No playlist with this id (or it is private).');

export const playlistChangeForbidden = (): AppError =>
  new AppError('forbidden', "Only the playlist's owner may change or delete it.");

export const tooManyPlaylists = (max: number): AppError =>
  new AppError('conflict', `You have ${max} playlists, the most one account may keep: delete one first.`);

export const tooManyPlaylistTracks = (max: number, given: number, path = '/track_ids'): AppError =>
  new AppError('invalid_input', `A playlist holds at most ${max} tracks; this one would hold ${given}.`, {
    errors: [{ path, message: `must hold at most ${max} tracks` }],
  });

/** A position (of the songs the caller sees) past the last one. */
export const playlistPositionPastEnd = (path: string, position: number, count: number): AppError =>
  new AppError(
    'invalid_input',
    count === 0
      ? `Position ${position} is past the end: the playlist shows you no tracks.`
      : `Position ${position} is past the end: the playlist shows you ${count} track${count === 1 ? '' : 's'}, positions 0 to ${count - 1}.`,
    { errors: [{ path, message: count === 0 ? 'names no track' : `must be 0 to ${count - 1}` }] },
  );

/** An edit naming a position whose song is not the one the caller saw there (another edit came first). */
export const playlistEntryMoved = (path: string, position: number): AppError =>
  new AppError(
    'conflict',
    `The playlist changed since you read it: position ${position} holds another track now. Read it again and retry.`,
    { errors: [{ path, message: 'is not the track at this position now' }] },
  );

/** A page asked with the cursor of a page read before the playlist changed. */
export const playlistChangedSincePage = (): AppError =>
  new AppError(
    'conflict',
    'The playlist changed after the previous page was read; read it again from its first page.',
    { errors: [{ path: 'querystring:/cursor', message: 'is from before the playlist changed' }] },
  );

export const playlistEditsCombined = (): AppError =>
  new AppError(
    'invalid_input',
    'Send one kind of change to the tracks at a time: track_ids (the whole new order), move, or remove and add_track_ids.',
    { errors: [{ path: '', message: 'must hold one of track_ids, move, or remove and add_track_ids' }] },
  );

/** Track ids that name no track the caller may read (unknown, deleted, private, or not yet playable). */
export const unknownPlaylistTracks = (ids: string[], path = '/track_ids'): AppError =>
  new AppError(
    'unprocessable',
    `${ids.length === 1 ? 'This track id names' : 'These track ids name'} no track you can play: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}.`,
    {
      errors: [{ path, message: 'must name tracks you can play' }],
      extra: { unknown_track_ids: ids.slice(0, 100) },
    },
  );

export const playlistNameBlank = (): AppError =>
  new AppError('invalid_input', 'A playlist needs a name: at least one character besides spaces.', {
    errors: [{ path: '/name', message: 'must not be blank' }],
  });
