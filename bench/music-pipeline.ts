/**
 * Media pipeline benchmark (same run, alternating rounds so drift hits both alike):
 *
 * 1. pipeline: a generated 3-minute stereo track, enqueue (flow starter) to `ready`, through a
 *    real music-worker process, PostgreSQL, Redis and the filesystem store; beside
 * 2. bare ffmpeg: every media step's ffmpeg commands (each descriptor's `bareCommands`, the
 *    same builders the processors use; stdout drained) run all at once (niceness 0 on both
 *    sides), on a local copy of the file;
 * 3. waveform throughput: peaks computed from ffmpeg's PCM vs ffmpeg's s16le decode alone.
 *
 * Beside wall time (which a loaded machine distorts), each side's CPU time: user+sys of the
 * process plus its reaped children (ffmpeg, ffprobe), from /proc/<pid>/stat, and the bytes it
 * read and wrote (/proc/<pid>/io rchar/wchar, children included). For the pipeline that is the
 * music-worker process; for bare ffmpeg the bench process itself. CPU time is what the
 * overhead target is judged on when the machine is shared.
 *
 * Needs PostgreSQL, Redis and ffmpeg; makes and drops its own database. Writes
 * bench/results/music-pipeline.md.
 *
 *   npx tsx bench/music-pipeline.ts
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { MEDIA_QUEUES, versionJobId } from '../src/music/jobs/queues.js';
import { parseProbe, probeArgs } from '../src/music/ffmpeg-commands/probe.js';
import { MEDIA_STEPS } from '../src/music/jobs/media-steps.js';
import { waveformDecodeArgs } from '../src/music/ffmpeg-commands/waveform.js';
import { FfmpegRunner } from '../src/music/repositories/ffmpeg-runner.js';
import { computeWaveform } from '../workers/music/waveform.js';
import { benchMusicConfig, benchMusicConnections, startBenchWorker } from './lib/music-app.js';
import { withBenchDatabase } from './lib/music-database.js';
import { openFlowEvents } from '../test/helpers/flow-events.js';

const ROOT = join(import.meta.dirname, '..');
const TRACK_SECONDS = 180;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const IDLE_WINDOW_MS = 10_000;
const run = promisify(execFile);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

interface Usage {
  /** user+sys of the process and its reaped children, seconds. */
  cpu: number;
  /** user+sys of the process alone (node: peaks, stores, BullMQ, Prisma), seconds. */
  selfCpu: number;
  readBytes: number;
  writtenBytes: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux (getconf CLK_TCK)

async function usageOf(pid: number | 'self'): Promise<Usage> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime field 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = (i: number): number => Number(fields[i]);
  const ticks = tick(11) + tick(12) + tick(13) + tick(14);
  const io = await readFile(`/proc/${pid}/io`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? NaN);
  return {
    cpu: ticks / TICKS_PER_SECOND,
    selfCpu: (tick(11) + tick(12)) / TICKS_PER_SECOND,
    readBytes: field('rchar'),
    writtenBytes: field('wchar'),
  };
}

interface Measured extends Usage {
  wall: number;
}

async function measured(pid: number | 'self', fn: () => Promise<unknown>): Promise<Measured> {
  const before = await usageOf(pid);
  const wall = await timed(fn);
  const after = await usageOf(pid);
  return {
    wall,
    cpu: after.cpu - before.cpu,
    selfCpu: after.selfCpu - before.selfCpu,
    readBytes: after.readBytes - before.readBytes,
    writtenBytes: after.writtenBytes - before.writtenBytes,
  };
}

async function main(): Promise<void> {
  const loadStart = loadavg();
  const work = await mkdtemp(join(tmpdir(), 'music-bench-pipeline-'));
  const source = join(work, 'track.flac');
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${TRACK_SECONDS}:sample_rate=44100`],
    ...['-f', 'lavfi', '-i', 'color=c=blue:s=800x600:d=1', '-map', '0:a', '-map', '1:v', '-frames:v', '1'],
    ...['-ac', '2', '-c:a', 'flac', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic', source],
  ]);
  const bytes = await readFile(source);
  // Niceness 0 on both sides: the worker gets FFMPEG_NICENESS=0 below.
  const runner = new FfmpegRunner();
  const probe = parseProbe(await runner.ffprobe(probeArgs(source), { timeoutMs: 60_000 }));
  if (!probe.ok) throw new Error(probe.reason);
  const bareCommands = MEDIA_STEPS.flatMap((step) => step.bareCommands(source, probe.info));
  const timeoutMs = 600_000;

  const bare = async (): Promise<void> => {
    const out = join(work, `bare-${randomBytes(3).toString('hex')}`);
    await mkdir(out);
    await Promise.all(bareCommands.map((args) => runner.ffmpeg(args, { cwd: out, timeoutMs })));
    await rm(out, { recursive: true, force: true });
  };

  const pipelineRuns: Measured[] = [];
  let idleCpuPerSecond = 0;
  const bareRuns: Measured[] = [];
  await withBenchDatabase(async (databaseUrl) => {
    // Rate limits and key prefixes as the other music benches; the worker below gets the queue prefix.
    const config = benchMusicConfig(databaseUrl, join(work, 'data'));
    const resources = await benchMusicConnections(config);
    // The built worker (`make bench` builds first); like the bare commands: niceness 0 and the
    // default concurrency (one job per media queue).
    const { process: worker } = await startBenchWorker(config, { WORKER_CONCURRENCY: '' });
    const flow = await openFlowEvents(config);
    const user = await resources.prisma.user.create({
      data: {
        handle: `bench_${randomBytes(3).toString('hex')}`,
        email: `b${Date.now()}@example.org`,
        passwordHash: 'x',
        displayName: 'b',
      },
    });
    const track = await resources.prisma.track.create({ data: { title: 'bench', ownerUserId: user.id } });
    const pipeline = async (round: number): Promise<void> => {
      const sourceKey = `bench/${round}-${randomBytes(3).toString('hex')}.flac`;
      await resources.stores.originals.put(sourceKey, bytes);
      const asset = await resources.prisma.asset.create({
        data: {
          ownerUserId: user.id,
          objectKey: sourceKey,
          filename: 't.flac',
          contentType: 'audio/flac',
          size: bytes.length,
          status: 'uploaded',
        },
      });
      const version = await resources.prisma.trackVersion.create({
        data: { trackId: track.id, number: round + 1, assetId: asset.id },
      });
      const done = flow.finalized(version.id);
      await flow.starter.start({ versionId: version.id, trackId: track.id, assetId: asset.id, sourceKey });
      await done;
      // Where the wall time went (stderr only): each job's wait, run and phases (its returnvalue).
      for (const name of [...MEDIA_QUEUES, 'version-finalize'] as const) {
        const queue = new Queue(name, { connection: flow.bull, prefix: config.queuePrefix });
        const job = await queue.getJob(versionJobId(name, version.id));
        if (job?.processedOn && job.finishedOn) {
          const timings = (job.returnvalue as { timings?: Record<string, number> } | null)?.timings ?? {};
          const phases = Object.entries(timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(2)}`);
          process.stderr.write(
            `round ${round} ${name}: waited ${((job.processedOn - job.timestamp) / 1000).toFixed(2)} s, ran ${((job.finishedOn - job.processedOn) / 1000).toFixed(2)} s${phases.length ? ` (${phases.join(', ')})` : ''}\n`,
          );
        }
        await queue.close();
      }
    };
    // Alternating, and which side goes first alternates too, so drift in the machine's load
    // hits both alike.
    for (let r = 0; r < ROUNDS; r++) {
      const runBare = async () => bareRuns.push(await measured('self', bare));
      const runPipeline = async () => pipelineRuns.push(await measured(worker.pid!, () => pipeline(r)));
      for (const step of r % 2 === 0 ? [runBare, runPipeline] : [runPipeline, runBare]) await step();
    }
    // The worker's own idle cost (BullMQ timers, Redis and Prisma keep-alives), per second: part
    // of the pipeline's CPU, but a rate over wall time, not a cost per track. Measured after the
    // rounds, when start-up work is long done.
    const idle = await measured(worker.pid!, () => sleep(IDLE_WINDOW_MS));
    idleCpuPerSecond = idle.cpu / idle.wall;
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
    await flow.close();
    await resources.close();
  });

  // Waveform: peaks from PCM vs ffmpeg's decode to s16le alone (stdout read and dropped).
  const peaksTimes: number[] = [];
  const decodeTimes: number[] = [];
  for (let r = 0; r < ROUNDS + 1; r++) {
    decodeTimes.push(
      await timed(() =>
        runner.ffmpeg(waveformDecodeArgs(source), {
          timeoutMs,
          stdout: async (s) => {
            for await (const _ of s) void _;
          },
        }),
      ),
    );
    peaksTimes.push(await timed(() => computeWaveform(runner, source, 44100, { timeoutMs })));
  }
  await rm(work, { recursive: true, force: true });

  const pick = (runs: Measured[]): Measured => ({
    wall: median(runs.map((m) => m.wall)),
    cpu: median(runs.map((m) => m.cpu)),
    selfCpu: median(runs.map((m) => m.selfCpu)),
    readBytes: median(runs.map((m) => m.readBytes)),
    writtenBytes: median(runs.map((m) => m.writtenBytes)),
  });
  const pm = pick(pipelineRuns);
  const bm = pick(bareRuns);
  // Each round's pipeline against the bare run beside it; the headline is the median of those.
  const wallRatios = pipelineRuns.map((m, i) => m.wall / bareRuns[i]!.wall);
  const cpuRatios = pipelineRuns.map((m, i) => m.cpu / bareRuns[i]!.cpu);
  const wallRatio = median(wallRatios);
  const cpuRatio = median(cpuRatios);
  const mb = (n: number): string => (n / 1e6).toFixed(1);
  const row = (name: string, m: Measured): string =>
    `| ${name} | ${m.wall.toFixed(2)} | ${(TRACK_SECONDS / m.wall).toFixed(1)} | ${m.cpu.toFixed(2)} | ${m.selfCpu.toFixed(2)} | ${mb(m.readBytes)} | ${mb(m.writtenBytes)} |`;
  const rounds = pipelineRuns.map(
    (m, i) =>
      `| ${i} | ${bareRuns[i]!.wall.toFixed(2)} | ${m.wall.toFixed(2)} | ${wallRatios[i]!.toFixed(2)} | ${bareRuns[i]!.cpu.toFixed(2)} | ${m.cpu.toFixed(2)} | ${cpuRatios[i]!.toFixed(2)} |`,
  );
  const waveformRatios = peaksTimes.map((w, i) => w / decodeTimes[i]!);
  const w = median(peaksTimes);
  const d = median(decodeTimes);
  const load = (l: number[]): string => l.map((x) => x.toFixed(1)).join(', ');
  const met = (x: number): string => (x <= 1.1 ? 'met' : 'not met');
  const markdown = [
    '## music-pipeline',
    '',
    `Generated ${TRACK_SECONDS} s stereo FLAC track (${mb(bytes.length)} MB) with a cover; ${ROUNDS} rounds, bare and pipeline alternating (which goes first alternates too). Pipeline: enqueue to \`ready\` through a music-worker process (PostgreSQL, Redis, filesystem store, default concurrency: the media jobs at once, ffmpeg niceness 0). Bare: each media step's ffmpeg commands (its descriptor's bareCommands, the same builders; ${bareCommands.length} here), all at once, niceness 0, on a local file. CPU = user+sys of the process and its ffmpeg/ffprobe children (/proc/<pid>/stat), which a shared machine distorts far less than wall time; read/written = /proc/<pid>/io rchar/wchar (children included). Compare ratios, not seconds. Load average (1, 5, 15 min) at the start: ${load(loadStart)}; at the end: ${load(loadavg())} on ${cpus().length} cores.`,
    '',
    '| round | bare wall s | pipeline wall s | wall ratio | bare CPU s | pipeline CPU s | CPU ratio |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rounds,
    '',
    '| scenario (median of the rounds) | wall s | × real time | CPU s | of which node s | read MB | written MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    row(`bare ffmpeg, ${bareCommands.length} commands at once (baseline)`, bm),
    row('pipeline, enqueue to ready', pm),
    '',
    `Pipeline / bare, median of the rounds' ratios: wall **${wallRatio.toFixed(2)}** (range ${Math.min(...wallRatios).toFixed(2)}–${Math.max(...wallRatios).toFixed(2)}), CPU **${cpuRatio.toFixed(2)}** (range ${Math.min(...cpuRatios).toFixed(2)}–${Math.max(...cpuRatios).toFixed(2)}); target <= 1.1: ${met(wallRatio)} on wall, ${met(cpuRatio)} on CPU. The pipeline runs at ${(TRACK_SECONDS / pm.wall).toFixed(1)}× real time. The idle worker process used ${(idleCpuPerSecond * 1000).toFixed(1)} ms of CPU per second of wall time (${IDLE_WINDOW_MS / 1000} s after the rounds), i.e. ${(idleCpuPerSecond * pm.wall).toFixed(2)} s of the pipeline's CPU at this wall time.`,
    '',
    '| waveform | wall s | seconds of audio per second | ratio to decode alone |',
    '| --- | ---: | ---: | ---: |',
    `| ffmpeg decode to s16le alone (baseline) | ${d.toFixed(2)} | ${(TRACK_SECONDS / d).toFixed(0)} | 1.00 |`,
    `| peaks from the PCM stream (both zoom levels' source) | ${w.toFixed(2)} | ${(TRACK_SECONDS / w).toFixed(0)} | ${median(waveformRatios).toFixed(2)} |`,
    '',
  ].join('\n');
  await writeFile(join(ROOT, 'bench', 'results', 'music-pipeline.md'), markdown);
  process.stdout.write(markdown);
}

await main();
