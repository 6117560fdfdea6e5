/**
 * artwork-extract: the attached picture as square JPEGs (600 and 300 px); none, or one ffmpeg
 * cannot decode (MEDIA_INPUT: the picture is an extra), is not a failure: the step is skipped.
 */
import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import { ARTWORK_SIZES, artworkArgs, artworkFile } from '../../src/music/ffmpeg-commands/artwork-args.js';
import type { ProcessorDeps } from './deps.js';
import { isUndecodable, runMediaJob, skippedPicture } from './media-job.js';
import { publish } from './publish.js';

export function artworkProcessor(deps: ProcessorDeps) {
  return (job: Job<MediaJobData>, token: string | undefined, signal: AbortSignal | undefined) =>
    runMediaJob(deps, job, token, signal, async ({ inputPath, workDir, probe, phase }) => {
      if (probe.coverStreamIndex === undefined) {
        await deps.versions.saveOutputs(job.data.versionId, { artworkKey: null });
        return { artworkKey: null };
      }
      try {
        await phase(
          'ffmpeg',
          deps.runner.ffmpeg(artworkArgs(inputPath, probe.coverStreamIndex), {
            cwd: workDir,
            timeoutMs: 60_000,
            signal,
          }),
        );
      } catch (err) {
        if (!isUndecodable(err)) throw err;
        await deps.versions.saveOutputs(job.data.versionId, { artworkKey: null });
        return { artworkKey: null, ...skippedPicture(err) };
      }
      const files = ARTWORK_SIZES.map((s) => ({ name: artworkFile(s), path: join(workDir, artworkFile(s)) }));
      await phase(
        'publish',
        publish(deps.stores.images, job.data.versionId, files, artworkFile(ARTWORK_SIZES[0])),
      );
      const artworkKey = `${job.data.versionId}/${artworkFile(ARTWORK_SIZES[0])}`;
      await phase('save', deps.versions.saveOutputs(job.data.versionId, { artworkKey }));
      return { artworkKey };
    });
}
