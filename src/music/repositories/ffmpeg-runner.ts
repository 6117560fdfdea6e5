/**
 * The one place that runs ffmpeg and ffprobe: spawn without a shell, lower priority (nice),
 * a time bound, an abort signal, progress from the stats line, and the tail of stderr kept for
 * the error message. Commands come from the pure builders in ../ffmpeg-commands/.
 *
 * fluent-ffmpeg is not used: it is unmaintained upstream, its builder hides the arguments in
 * mutable state (hard to unit-test), and it would be a second runner beside this one.
 *
 * If the worker dies (SIGKILL), ffmpeg's next stats write to the closed stderr pipe raises
 * SIGPIPE and ends it, so no orphan keeps transcoding; outputs are in a private temp folder.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';
import { lastProgressSeconds, stderrTail } from '../ffmpeg-commands/ffmpeg-output.js';

const STDERR_KEEP = 64 * 1024;

export interface RunOptions {
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Seconds of media done, from ffmpeg's `time=`. */
  onProgress?: (seconds: number) => void;
  /** Consumes stdout (e.g. PCM); must read it to the end. Without it stdout is discarded. */
  stdout?: (stream: Readable) => Promise<void>;
}

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly exitCode: number | null,
    readonly reason: 'exit' | 'timeout' | 'aborted' | 'spawn',
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export class FfmpegRunner {
  constructor(private readonly options: { ffmpeg?: string; ffprobe?: string; niceness?: number } = {}) {}

  ffmpeg(args: readonly string[], options: RunOptions): Promise<{ stderr: string }> {
    return this.run(this.options.ffmpeg ?? 'ffmpeg', args, options);
  }

  /** ffprobe's stdout (JSON). */
  async ffprobe(args: readonly string[], options: RunOptions): Promise<string> {
    const chunks: Buffer[] = [];
    await this.run(this.options.ffprobe ?? 'ffprobe', args, {
      ...options,
      stdout: async (stream) => {
        for await (const chunk of stream) chunks.push(chunk as Buffer);
      },
    });
    return Buffer.concat(chunks).toString('utf8');
  }

  private run(command: string, args: readonly string[], options: RunOptions): Promise<{ stderr: string }> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new FfmpegError(`${command} was not started: aborted`, '', null, 'aborted'));
        return;
      }
      const child = spawn(command, args, {
        cwd: options.cwd,
        stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
      });
      let stderr = '';
      let ended: 'timeout' | 'aborted' | undefined;
      const stop = (why: 'timeout' | 'aborted'): void => {
        ended ??= why;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
      const onAbort = (): void => stop('aborted');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      child.once('spawn', () => {
        if (child.pid !== undefined && this.options.niceness) {
          try {
            setPriority(child.pid, this.options.niceness);
          } catch {
            // Not allowed here (e.g. a container without CAP_SYS_NICE): run at normal priority.
          }
        }
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        stderr = (stderr + text).slice(-STDERR_KEEP);
        if (options.onProgress) {
          const seconds = lastProgressSeconds(text);
          if (seconds !== undefined) options.onProgress(seconds);
        }
      });
      const consumed = options.stdout && child.stdout ? options.stdout(child.stdout) : Promise.resolve();
      // A consumer that fails (e.g. its own error) must not leave ffmpeg running.
      consumed.catch(() => child.kill('SIGKILL'));
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(new FfmpegError(`${command} could not be started: ${err.message}`, stderr, null, 'spawn'));
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        consumed.then(
          () => {
            if (ended === 'timeout')
              reject(
                new FfmpegError(
                  `${command} timed out after ${options.timeoutMs} ms`,
                  stderr,
                  code,
                  'timeout',
                ),
              );
            else if (ended === 'aborted')
              reject(new FfmpegError(`${command} was stopped`, stderr, code, 'aborted'));
            else if (code !== 0)
              reject(
                new FfmpegError(
                  `${command} failed (exit ${code}): ${stderrTail(stderr)}`,
                  stderr,
                  code,
                  'exit',
                ),
              );
            else resolve({ stderr });
          },
          (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
        );
      });
    });
  }
}
