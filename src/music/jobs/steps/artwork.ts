/**
 * artwork-extract: the attached picture as square JPEGs (workers/music/artwork.ts). A decoration:
 * a version without a cover is playable, so its failure never fails the version.
 */
import { artworkArgs } from '../../ffmpeg-commands/artwork-args.js';
import { defineMediaStep } from '../media-step.js';

export const artworkStep = defineMediaStep({
  queue: 'artwork-extract',
  reads: 'picture',
  step: 'artwork',
  label: 'Artwork',
  ffmpeg: { encoders: ['mjpeg'], filters: ['scale', 'crop', 'split'], muxers: ['image2'] },
  writes: ['artworkKey'],
  required: false,
  concurrency: 1,
  bareCommands: (input, probe) =>
    probe.coverStreamIndex === undefined ? [] : [artworkArgs(input, probe.coverStreamIndex)],
});
