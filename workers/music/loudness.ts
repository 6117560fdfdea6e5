/** loudness: ebur128 with true peak; integrated, range, true peak and ReplayGain 2.0 on the version. */
import { UnrecoverableError, type Job } from 'bullmq';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import { ffmpegTimeoutMs } from '../../src/music/ffmpeg-commands/ffmpeg-output.js';
import { loudnessArgs, parseEbur128Summary } from '../../src/music/ffmpeg-commands/loudness.js';
import type { ProcessorDeps } from './deps.js';
import { runMediaJob } from './media-job.js';

export function loudnessProcessor(deps: ProcessorDeps) {
  return (job: Job<MediaJobData>, token: string | undefined, signal: AbortSignal | undefined) =>
    runMediaJob(deps, job, token, signal, async ({ inputPath, probe, progress, phase }) => {
      const { stderr } = await phase(
        'ffmpeg',
        deps.runner.ffmpeg(loudnessArgs(inputPath), {
          timeoutMs: ffmpegTimeoutMs(probe.durationMs),
          signal,
          onProgress: progress,
        }),
      );
      const loudness = parseEbur128Summary(stderr);
      if (!loudness) throw new UnrecoverableError('ffmpeg ebur128 printed no loudness summary');
      const outputs = {
        loudnessIntegrated: loudness.integrated,
        loudnessRange: loudness.range,
        truePeak: loudness.truePeak,
        replayGain: loudness.replayGain,
      };
      await phase('save', deps.versions.saveOutputs(job.data.versionId, outputs));
      return outputs;
    });
}
