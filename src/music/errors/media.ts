/** Media errors: stored objects and their links (HLS, images, waveforms, Subsonic files) and media types. */
import { AppError } from '../../core/errors.js';

export const mediaObjectNotFound = (): AppError => new AppError('not_found', 'No such media object.');

export const mediaLinkNotSigned = (): AppError =>
  new AppError(
    'forbidden',
    'The media link is not signed, or its signature does not match; ask the API for a fresh link.',
  );

export const mediaLinkExpired = (): AppError =>
  new AppError('gone', 'The media link has expired; ask the API for a fresh link.');

/** A Range outside a public or HLS object of `size` bytes (416 with the size, RFC 9110 §15.5.17). */
export const rangeOutsideObject = (size: number): AppError =>
  new AppError('range_not_satisfiable', `The requested range is outside the object (${size} bytes).`, {
    headers: { 'content-range': `bytes */${size}` },
  });

/** The same for a Subsonic song's file (stream, download, cover art). */
export const rangeOutsideFile = (size: number): AppError =>
  new AppError('range_not_satisfiable', `The requested range is outside the file (${size} bytes).`, {
    headers: { 'content-range': `bytes */${size}` },
  });

/** An upload declared as a type that is not audio we accept (`accepted`: the list a client may send). */
export const undeclarableAudioType = (declared: string, accepted: string): AppError =>
  new AppError(
    'unsupported_media_type',
    `Uploads are audio: content_type ${JSON.stringify(declared)} is not accepted; send one of ${accepted} (the server types the file by its content).`,
    { errors: [{ path: '/content_type', message: `must be one of ${accepted}` }] },
  );
