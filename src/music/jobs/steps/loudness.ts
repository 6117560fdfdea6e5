/** loudness: EBU R 128 with true peak, and ReplayGain 2.0 (workers/music/loudness.ts). */
import { loudnessArgs } from '../../ffmpeg-commands/loudness.js';
import { defineMediaStep } from '../media-step.js';

export const loudnessStep = defineMediaStep({
  queue: 'loudness',
  reads: 'audio',
  step: 'loudness',
  label: 'Loudness',
  ffmpeg: { encoders: [], filters: ['ebur128'], muxers: ['null'] },
  writes: ['loudnessIntegrated', 'loudnessRange', 'truePeak', 'replayGain'],
  required: true,
  concurrency: 1,
  bareCommands: (input) => [loudnessArgs(input)],
});
