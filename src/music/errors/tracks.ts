/** Errors of tracks and their versions (services/track-service.ts, analytics-service.ts). */
import { AppError } from '../../core/errors.js';

export const trackNotFound = (): AppError =>
  new AppError('not_found', 'No track with this id (or it is private).');

export const trackChangeForbidden = (ownerOnly: boolean): AppError =>
  new AppError('forbidden', `Only the track's owner${ownerOnly ? '' : ' or an admin'} may do this.`);

export const currentVersionNotReady = (): AppError =>
  new AppError('invalid_input', 'Only a ready version of this track can be the current one.', {
    errors: [
      { path: '/current_version_id', message: "must be the id of one of this track's ready versions" },
    ],
  });

export const tagsNeedVersion = (): AppError =>
  new AppError('conflict', 'This track has no version yet: add one before editing its tags.', {
    errors: [{ path: '/tags', message: 'needs a version' }],
  });

export const noCompletedUpload = (): AppError =>
  new AppError('not_found', 'No completed upload of yours with this asset_id.', {
    errors: [{ path: '/asset_id', message: 'names no completed upload of yours' }],
  });

export const versionNotOfTrack = (): AppError =>
  new AppError('invalid_input', 'The version_id names no version of this track.', {
    errors: [{ path: '/version_id', message: "must be the id of one of this track's versions" }],
  });

/** A play names no playable version: the track has none yet, or `version_id` names none of its own. */
export const noPlayableVersion = (versionAsked: boolean): AppError =>
  new AppError(
    'not_found',
    versionAsked ? 'No such version of this track.' : 'This track has no version to play yet.',
    {
      errors: [{ path: versionAsked ? '/version_id' : '/track_id', message: 'names no playable version' }],
    },
  );

/** An upload already made into a version: each upload backs one version (its own media pipeline). */
export const uploadAlreadyVersion = (version: {
  id: string;
  number: number;
  trackId: string;
  trackTitle: string;
}): AppError =>
  new AppError(
    'conflict',
    `This upload is already version ${version.number} of the track "${version.trackTitle}" (${version.trackId}); upload the file again to add it as a version of another track.`,
    {
      errors: [{ path: '/asset_id', message: 'already backs a version' }],
      extra: { track_id: version.trackId, version_id: version.id },
    },
  );

/** Too many of the owner's versions from uploads still queued or processing (VERSIONS_IN_FLIGHT_PER_USER). */
export const tooManyVersionsInFlight = (max: number, retryAfterSeconds: number): AppError =>
  new AppError(
    'rate_limited',
    `You have ${max} versions waiting for or in processing, the most one account may have at once; add this one when one of them is ready (retry in ${retryAfterSeconds} s).`,
    {
      headers: { 'retry-after': String(retryAfterSeconds) },
      extra: { retry_after_seconds: retryAfterSeconds, versions_in_flight_max: max },
    },
  );
