/**
 * ffmpeg arguments of the transcode: one decode of the original feeding every HLS rendition
 * (fMP4 segments, VOD playlists) and the progressive AAC file (MP4 with +faststart), so the
 * source is read once. Paths are relative to the output folder (the runner's cwd).
 */
import { SEGMENT_SECONDS, type Rendition } from './ladder.js';

export const PROGRESSIVE_FILE = 'progressive.m4a';
export const VARIANT_PLAYLIST = 'index.m3u8';

export function transcodeArgs(
  inputPath: string,
  ladder: readonly Rendition[],
  progressive: Rendition,
): string[] {
  const n = ladder.length;
  const layout = (r: Rendition): string => (r.channels === 1 ? 'mono' : 'stereo');
  const split = ladder.map((_, i) => `[a${i}]`).join('') + '[p]';
  const filter =
    `[0:a:0]asplit=${n + 1}${split};` +
    ladder.map((r, i) => `[a${i}]aformat=channel_layouts=${layout(r)}[o${i}]`).join(';') +
    `;[p]aformat=channel_layouts=${layout(progressive)}[op]`;
  const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-stats', '-i', inputPath];
  args.push('-filter_complex', filter);
  ladder.forEach((r, i) => {
    args.push('-map', `[o${i}]`, `-c:a:${i}`, 'aac', `-b:a:${i}`, String(r.bitRate));
  });
  args.push(
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod'],
    ...['-hls_segment_type', 'fmp4', '-hls_flags', 'independent_segments'],
    ...['-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', '%v/seg_%05d.m4s'],
    ...['-var_stream_map', ladder.map((r, i) => `a:${i},name:${r.name}`).join(' ')],
    `%v/${VARIANT_PLAYLIST}`,
  );
  args.push(
    ...['-map', '[op]', '-c:a', 'aac', '-b:a', String(progressive.bitRate)],
    ...['-movflags', '+faststart', '-f', 'mp4', PROGRESSIVE_FILE],
  );
  return args;
}
