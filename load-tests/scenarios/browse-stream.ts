/**
 * Music browse and stream, as a player does: the track (with its signed HLS URL), its comments,
 * then the signed master playlist, each variant playlist and every segment it lists (each URI
 * carries its own signature). Any media answer other than 200 is a failure.
 */
import { runFor, timed } from '../lib/http.js';
import { newTally, type ScenarioResult, type Tally } from '../lib/report.js';
import type { LoadOptions } from './options.js';

/** URIs of a playlist (lines that are not tags), resolved against the playlist's URL. */
export function playlistUris(text: string, playlistUrl: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => new URL(l, playlistUrl).toString());
}

export async function browseStream(
  base: string,
  trackIds: readonly string[],
  options: LoadOptions,
): Promise<ScenarioResult> {
  const started = performance.now();
  const rows = { track: newTally(), comments: newTally(), playlist: newTally(), segment: newTally() };
  const failures: string[] = [];
  const fail = (text: string) => {
    if (failures.length < 5) failures.push(text);
  };
  if (trackIds.length === 0)
    fail('no tracks to stream: set MUSIC_TRACK_IDS to ids of tracks with a ready version');
  const media = async (tally: Tally, url: string, headers: Record<string, string>) => {
    const answer = await timed(tally, url, { headers });
    if (answer && answer.status !== 200) fail(`${new URL(url).pathname}: ${answer.status}`);
    return answer?.status === 200 ? answer : undefined;
  };
  let i = 0;
  if (trackIds.length > 0)
    await runFor(options, async () => {
      const id = trackIds[i++ % trackIds.length]!;
      const headers = { 'x-forwarded-for': options.clientAddress() };
      const track = await timed(rows.track, `${base}/api/v1/tracks/${id}`, { headers });
      await timed(rows.comments, `${base}/api/v1/tracks/${id}/comments?limit=20`, { headers });
      if (!track || track.status !== 200) return fail(`track ${id}: ${track?.status ?? 'no answer'}`);
      const hls = (
        JSON.parse(track.body.toString('utf8')) as { current_version?: { hls_url?: string | null } }
      ).current_version?.hls_url;
      if (!hls) return fail(`track ${id} has no ready version with an HLS URL`);
      const masterUrl = new URL(hls, base).toString();
      const master = await media(rows.playlist, masterUrl, headers);
      if (!master) return;
      for (const variantUrl of playlistUris(master.body.toString('utf8'), masterUrl)) {
        const variant = await media(rows.playlist, variantUrl, headers);
        if (!variant) continue;
        for (const segmentUrl of playlistUris(variant.body.toString('utf8'), variantUrl))
          await media(rows.segment, segmentUrl, headers);
      }
    });
  return {
    name: 'browse-stream',
    seconds: (performance.now() - started) / 1000,
    rows: Object.entries(rows).map(([label, tally]) => ({ label, tally })),
    failures,
    notes: [`${trackIds.length} track(s), ${options.connections} connections`],
  };
}
