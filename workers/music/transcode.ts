/** transcode: HLS ladder (fMP4) + progressive AAC into the transcodes store under the version id. */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Job } from 'bullmq';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import { ffmpegTimeoutMs } from '../../src/music/ffmpeg-commands/ffmpeg-output.js';
import {
  decodedDurationMs,
  masterPlaylist,
  parseMediaPlaylist,
  reportedDurationMs,
  type VariantStats,
} from '../../src/music/ffmpeg-commands/hls-master.js';
import { chooseLadder, progressiveRendition } from '../../src/music/ffmpeg-commands/ladder.js';
import {
  PROGRESSIVE_FILE,
  transcodeArgs,
  VARIANT_PLAYLIST,
} from '../../src/music/ffmpeg-commands/transcode-args.js';
import type { ProcessorDeps } from './deps.js';
import { runMediaJob } from './media-job.js';
import { publish, type OutputFile } from './publish.js';

export const MASTER_PLAYLIST = 'master.m3u8';

export function transcodeProcessor(deps: ProcessorDeps) {
  return (job: Job<MediaJobData>, token: string | undefined, signal: AbortSignal | undefined) =>
    runMediaJob(deps, job, token, signal, async ({ inputPath, workDir, probe, progress, phase }) => {
      const ladder = chooseLadder(probe);
      const out = join(workDir, 'out');
      await mkdir(out);
      await phase(
        'ffmpeg',
        deps.runner.ffmpeg(transcodeArgs(inputPath, ladder, progressiveRendition(ladder)), {
          cwd: out,
          timeoutMs: ffmpegTimeoutMs(probe.durationMs),
          signal,
          onProgress: progress,
        }),
      );
      const variants: VariantStats[] = [];
      let durationMs: number | undefined;
      for (const rendition of ladder) {
        const dir = join(out, rendition.name);
        const playlist = parseMediaPlaylist(await readFile(join(dir, VARIANT_PLAYLIST), 'utf8'));
        // The duration reported is what was decoded, not what the file's header promised.
        durationMs ??= decodedDurationMs(playlist);
        const sizeOf = async (uri: string): Promise<number> => (await stat(join(dir, uri))).size;
        variants.push({
          uri: `${rendition.name}/${VARIANT_PLAYLIST}`,
          initBytes: playlist.initUri ? await sizeOf(playlist.initUri) : 0,
          segmentBytes: await Promise.all(playlist.segments.map((s) => sizeOf(s.uri))),
          segmentDurations: playlist.segments.map((s) => s.duration),
        });
      }
      await writeFile(join(out, MASTER_PLAYLIST), masterPlaylist(variants));
      const files = await listFiles(out);
      await phase('publish', publish(deps.stores.transcodes, job.data.versionId, files, MASTER_PLAYLIST));
      const outputs = {
        durationMs:
          durationMs === undefined ? probe.durationMs : reportedDurationMs(probe.durationMs, durationMs),
        hlsKey: `${job.data.versionId}/${MASTER_PLAYLIST}`,
        progressiveKey: `${job.data.versionId}/${PROGRESSIVE_FILE}`,
      };
      await phase('save', deps.versions.saveOutputs(job.data.versionId, outputs));
      return { ...outputs, renditions: ladder.map((r) => r.name) };
    });
}

async function listFiles(root: string): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.push({ name: relative(root, path).split(sep).join('/'), path });
    }
  };
  await walk(root);
  return files;
}
