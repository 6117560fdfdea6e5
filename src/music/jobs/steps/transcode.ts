/** transcode: the HLS renditions and the progressive AAC file (workers/music/transcode.ts). */
import { chooseLadder, progressiveRendition } from '../../ffmpeg-commands/ladder.js';
import { transcodeArgs } from '../../ffmpeg-commands/transcode-args.js';
import { defineMediaStep } from '../media-step.js';

export const transcodeStep = defineMediaStep({
  queue: 'transcode',
  reads: 'audio',
  step: 'transcoding',
  label: 'Transcoding',
  ffmpeg: { encoders: ['aac'], filters: ['asplit', 'aformat'], muxers: ['hls', 'mp4'] },
  writes: ['hlsKey', 'progressiveKey', 'durationMs'],
  required: true,
  concurrency: 1,
  bareCommands: (input, probe) => {
    const ladder = chooseLadder(probe);
    return [transcodeArgs(input, ladder, progressiveRendition(ladder))];
  },
});
