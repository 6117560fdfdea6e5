/**
 * artwork-extract: the attached picture as square JPEGs (600 and 300 px); none, or one ffmpeg
 * cannot decode (MEDIA_INPUT: the picture is an extra), is not a failure: the step is skipped.
 */
import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import { ARTWORK_SIZES, artworkArgs, artworkFile } from '../../src/music/ffmpeg-commands/artwork-args.js';
import { spoolToFile } from '../../src/core/repositories/spool-file.js';
import type { ProcessorDeps } from './deps.js';
import { isUndecodable, runMediaJob, skippedPicture } from './media-job.js';
import { publish } from './publish.js';

export function artworkProcessor(deps: ProcessorDeps) {
  return (job: Job<MediaJobData>, token: string | undefined, signal: AbortSignal | undefined) =>
    runMediaJob(deps, job, token, signal, async ({ inputPath, workDir, probe, phase }) => {
      // No picture inside: the cover file the library import found beside the original, if any.
      const picture =
        probe.coverStreamIndex === undefined && job.data.coverKey !== undefined
          ? await coverFile(deps, job.data.coverKey, workDir)
          : undefined;
      const input = picture ?? { path: inputPath, stream: probe.coverStreamIndex };
      if (input.stream === undefined) {
        await deps.versions.saveOutputs(job.data.versionId, { artworkKey: null });
        return { artworkKey: null };
      }
      try {
        await phase(
          'ffmpeg',
          deps.runner.ffmpeg(artworkArgs(input.path, input.stream), {
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

/** The stored cover as a local file (its only stream is the picture); undefined when it is gone. */
async function coverFile(
  deps: ProcessorDeps,
  key: string,
  workDir: string,
): Promise<{ path: string; stream: number } | undefined> {
  const source = await deps.stores.originals.readSource(key);
  if (!source) return undefined;
  if ('file' in source) return { path: source.file, stream: 0 };
  const path = join(workDir, 'cover-input');
  await spoolToFile(source.body, path, undefined);
  return { path, stream: 0 };
}
