/** Start-up check: ffmpeg and ffprobe run, and ffmpeg has the encoders, filters and muxers the media steps need. */
import type { Readable } from 'node:stream';
import { missingCapabilities } from '../../src/music/ffmpeg-commands/capabilities.js';
import type { MediaStep } from '../../src/music/jobs/media-step.js';
import { requiredFfmpeg } from '../../src/music/jobs/media-steps.js';
import type { FfmpegRunner } from '../../src/music/repositories/ffmpeg-runner.js';

async function listing(runner: FfmpegRunner, flag: string): Promise<string> {
  let text = '';
  await runner.ffmpeg(['-hide_banner', flag], {
    timeoutMs: 60_000,
    stdout: async (stream: Readable) => {
      for await (const chunk of stream) text += String(chunk);
    },
  });
  return text;
}

/** undefined when all is there, else a message an operator can act on. */
export async function checkFfmpeg(
  runner: FfmpegRunner,
  steps?: readonly MediaStep[],
): Promise<string | undefined> {
  try {
    await runner.ffprobe(['-version'], { timeoutMs: 60_000 });
    const [encoders, filters, muxers] = await Promise.all(
      ['-encoders', '-filters', '-muxers'].map((f) => listing(runner, f)),
    );
    const lists = { encoders: encoders!, filters: filters!, muxers: muxers! };
    const missing = missingCapabilities(lists, requiredFfmpeg(steps));
    if (missing.length === 0) return undefined;
    return `ffmpeg lacks ${missing.join(', ')}; install a full ffmpeg build (Debian: apt-get install ffmpeg)`;
  } catch (err) {
    return `ffmpeg/ffprobe cannot be run (${(err as Error).message}); install ffmpeg (Debian: apt-get install ffmpeg)`;
  }
}
