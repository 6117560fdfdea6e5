/**
 * Audio made by ffmpeg for tests and benches (nothing downloaded). No test-runner imports here,
 * so benches can use it too.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/**
 * A stereo 1 kHz sine at -20 dBFS (amplitude 0.1) for `sineSeconds`, then silence up to
 * `seconds`, optionally with an attached 800x600 cover picture and tags.
 */
export async function generateAudio(
  path: string,
  options: {
    seconds: number;
    /** 0: silence throughout. */
    sineSeconds?: number;
    cover?: boolean;
    codec?: string;
    channels?: 1 | 2;
    sampleRate?: number;
    bitRate?: string;
    /** Written as the file's tags (title, artist, album, genre, date, …). */
    tags?: Record<string, string>;
  },
): Promise<void> {
  const sine = options.sineSeconds ?? options.seconds;
  const expr = `if(lt(t,${sine}),0.1*sin(2*PI*1000*t),0)`;
  const channels = options.channels ?? 2;
  const args = [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${Array(channels).fill(expr).join('|')}':s=${options.sampleRate ?? 44100}:d=${options.seconds}`,
  ];
  if (options.cover) args.push('-f', 'lavfi', '-i', 'color=c=blue:s=800x600:d=1');
  args.push('-map', '0:a');
  if (options.cover)
    args.push('-map', '1:v', '-frames:v', '1', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic');
  args.push('-c:a', options.codec ?? 'flac');
  if (options.bitRate) args.push('-b:a', options.bitRate);
  for (const [k, v] of Object.entries(options.tags ?? {})) args.push('-metadata', `${k}=${v}`);
  args.push(path);
  await run('ffmpeg', args);
}
