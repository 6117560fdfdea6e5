/** waveform: peaks from ffmpeg's PCM, in audiowaveform's JSON v2 and .dat, two zoom levels. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Job } from 'bullmq';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import { ffmpegTimeoutMs } from '../../src/music/ffmpeg-commands/ffmpeg-output.js';
import {
  PeakAccumulator,
  rescaleWaveform,
  WAVEFORM_OVERVIEW_SAMPLES_PER_PIXEL,
  WAVEFORM_SAMPLES_PER_PIXEL,
  waveformDat,
  waveformDecodeArgs,
  waveformJson,
  type Waveform,
} from '../../src/music/ffmpeg-commands/waveform.js';
import type { FfmpegRunner, RunOptions } from '../../src/music/repositories/ffmpeg-runner.js';
import type { ProcessorDeps } from './deps.js';
import { runMediaJob } from './media-job.js';
import { publish } from './publish.js';

/** Decodes to PCM and folds it into peaks as it streams: the PCM is never held. */
export async function computeWaveform(
  runner: FfmpegRunner,
  inputPath: string,
  sampleRate: number,
  options: Omit<RunOptions, 'stdout'>,
): Promise<Waveform> {
  const peaks = new PeakAccumulator(sampleRate, WAVEFORM_SAMPLES_PER_PIXEL);
  await runner.ffmpeg(waveformDecodeArgs(inputPath), {
    ...options,
    stdout: async (stream: Readable) => {
      for await (const chunk of stream) peaks.push(chunk as Buffer);
    },
  });
  return peaks.finish();
}

export function waveformProcessor(deps: ProcessorDeps) {
  return (job: Job<MediaJobData>, token: string | undefined, signal: AbortSignal | undefined) =>
    runMediaJob(deps, job, token, signal, async ({ inputPath, workDir, probe, progress, phase }) => {
      const fine = await phase(
        'ffmpeg',
        computeWaveform(deps.runner, inputPath, probe.sampleRate, {
          timeoutMs: ffmpegTimeoutMs(probe.durationMs),
          signal,
          onProgress: progress,
        }),
      );
      const overview = rescaleWaveform(fine, WAVEFORM_OVERVIEW_SAMPLES_PER_PIXEL);
      const files = [
        { name: 'waveform.json', body: waveformJson(fine) },
        { name: 'waveform.dat', body: waveformDat(fine) },
        { name: `waveform-${WAVEFORM_OVERVIEW_SAMPLES_PER_PIXEL}.json`, body: waveformJson(overview) },
        { name: `waveform-${WAVEFORM_OVERVIEW_SAMPLES_PER_PIXEL}.dat`, body: waveformDat(overview) },
      ];
      for (const f of files) await writeFile(join(workDir, f.name), f.body);
      const outputs = files.map((f) => ({ name: f.name, path: join(workDir, f.name) }));
      await phase('publish', publish(deps.stores.waveforms, job.data.versionId, outputs, 'waveform.json'));
      const waveformKey = `${job.data.versionId}/waveform.json`;
      await phase('save', deps.versions.saveOutputs(job.data.versionId, { waveformKey }));
      return { waveformKey, pixels: fine.data.length / 2 };
    });
}
