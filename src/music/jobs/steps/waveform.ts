/** waveform: peaks from the decoded audio, two zoom levels (workers/music/waveform.ts). */
import { waveformDecodeArgs } from '../../ffmpeg-commands/waveform.js';
import { defineMediaStep } from '../media-step.js';

export const waveformStep = defineMediaStep({
  queue: 'waveform',
  reads: 'audio',
  step: 'waveform',
  label: 'Waveform',
  ffmpeg: { encoders: ['pcm_s16le'], filters: [], muxers: ['s16le'] },
  writes: ['waveformKey'],
  required: true,
  concurrency: 1,
  bareCommands: (input) => [waveformDecodeArgs(input)],
});
