/** Errors of playlists (services/playlist-service.ts): REST answers; Subsonic maps its own. */
import { AppError } from '../../core/errors.js';

export const playlistNotFound = (): AppError =>
  new AppError('not_found', 'No playlist with this id (or it is private).');

export const playlistChangeForbidden = (): AppError =>
  new AppError('forbidden', "Only the playlist's owner may change or delete it.");

export const tooManyPlaylists = (max: number): AppError =>
  new AppError('conflict', `You have ${max} playlists, the most one account may keep: delete one first.`);

export const tooManyPlaylistTracks = (max: number, given: number): AppError =>
  new AppError('invalid_input', `A playlist holds at most ${max} tracks; this one would hold ${given}.`, {
    errors: [{ path: '/track_ids', message: `must hold at most ${max} tracks` }],
  });

/** Track ids that name no track the caller may read (unknown, deleted, private, or not yet playable). */
export const unknownPlaylistTracks = (ids: string[]): AppError =>
  new AppError(
    'unprocessable',
    `${ids.length === 1 ? 'This track id names' : 'These track ids name'} no track you can play: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}.`,
    {
      errors: [{ path: '/track_ids', message: 'must name tracks you can play' }],
      extra: { unknown_track_ids: ids.slice(0, 100) },
    },
  );

export const playlistNameBlank = (): AppError =>
  new AppError('invalid_input', 'A playlist needs a name: at least one character besides spaces.', {
    errors: [{ path: '/name', message: 'must not be blank' }],
  });
