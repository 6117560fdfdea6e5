/**
 * A large playlist a page at a time: one account's public playlist of BENCH_ENTRIES entries (of
 * BENCH_TRACKS distinct ready tracks, some made private so the page must skip them); another
 * account reads its first page (REST GET /api/v1/playlists/:id), a deep page by cursor
 * (/tracks), and Subsonic getPlaylist (every song). Medians of sequential in-process calls,
 * each beside /api/v1/health measured in the same run, as a ratio, with the load average.
 *
 *   node --import tsx bench/playlist-pages.ts
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { encodeOffsetCursor } from '../src/music/services/page-cursor.js';
import { withBenchMusic, writeBenchResult } from './lib/music-app.js';
import { seedReadyTracks, signup } from './lib/music-seed.js';
import { median } from './lib/timing.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const TRACKS = Number(process.env.BENCH_TRACKS ?? 1_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 15);

/** Median milliseconds and answer size of `CALLS` sequential GETs (after two warm-up calls). */
async function timed(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < CALLS + 2; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    if (i >= 2) ms.push(performance.now() - start);
    bytes = res.rawPayload.length;
  }
  return { ms: median(ms), bytes };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-playlist-pages-'));
  try {
    await withBenchMusic(dataDir, async ({ app, connections }) => {
      const owner = await signup(app, 'bench_lists');
      const reader = await signup(app, 'bench_listener');
      const tracks = await seedReadyTracks(connections, owner.id, TRACKS);
      // Every tenth track private: the reader's pages skip its entries.
      await connections.prisma.track.updateMany({
        where: { id: { in: tracks.filter((_, i) => i % 10 === 0) } },
        data: { visibility: 'private' },
      });
      const playlist = await connections.prisma.playlist.create({
        data: { ownerUserId: owner.id, name: 'big', public: true },
      });
      await connections.prisma.playlistEntry.createMany({
        data: Array.from({ length: ENTRIES }, (_, position) => ({
          playlistId: playlist.id,
          trackId: tracks[position % tracks.length]!,
          position,
        })),
      });
      const auth = { authorization: `Bearer ${reader.token}` };
      const key = await app.inject({
        method: 'POST',
        url: '/api/v1/me/client-keys',
        headers: auth,
        payload: { name: 'bench' },
      });
      const apiKey = key.json<{ key: string }>().key;
      const visible = Math.floor(ENTRIES * 0.9);
      const deep = encodeOffsetCursor({ version: playlist.updatedAt, offset: visible - 100 });
      const health = await timed(app, '/api/v1/health');
      const first = await timed(app, `/api/v1/playlists/${playlist.id}`, auth);
      const deepPage = await timed(app, `/api/v1/playlists/${playlist.id}/tracks?cursor=${deep}`, auth);
      const subsonic = await timed(app, `/rest/getPlaylist.view?apiKey=${apiKey}&f=json&id=${playlist.id}`);
      const load = loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
      const row = (what: string, r: { ms: number; bytes: number }) =>
        `| ${what} | ${r.ms.toFixed(2)} | ${(r.ms / health.ms).toFixed(1)} | ${(r.bytes / 1024).toFixed(1)} KiB |`;
      const text = [
        '## Playlist pages (bench/playlist-pages.ts)',
        '',
        `Measured ${new Date().toISOString()}; \`node --import tsx bench/playlist-pages.ts\`: a public playlist of ${ENTRIES} entries over ${TRACKS} ready tracks (every tenth private, so another account sees ${visible}), read by another account; median of ${CALLS} sequential in-process calls; load average ${load}.`,
        '',
        '| call | median ms | ratio to health | answer |',
        '| --- | ---: | ---: | ---: |',
        row('GET /api/v1/health (baseline)', health),
        row('GET /api/v1/playlists/:id (fields, totals, first 100 songs)', first),
        row(`GET /api/v1/playlists/:id/tracks?cursor= (100 songs after ${visible - 100})`, deepPage),
        row(`Subsonic getPlaylist (all ${visible} songs)`, subsonic),
        '',
      ].join('\n');
      console.log(text);
      await writeBenchResult('playlist-pages', text);
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
