/**
 * Subsonic getPlaylists when others' public playlists are large: one account holds 50 public
 * playlists of 10,000 entries each (the attack report's case, 6.2 s a call before the songs were
 * counted in SQL); another lists them. Each figure beside ping measured in the same run, as a
 * ratio, sequential calls in process (app.inject), with the machine's load average.
 *
 *   node --import tsx bench/subsonic-playlists.ts
 *   BENCH_PLAYLISTS=10 BENCH_ENTRIES=2000 node --import tsx bench/subsonic-playlists.ts
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { withBenchMusic } from './lib/music-app.js';
import { seedReadyTracks, signup } from './lib/music-seed.js';
import { median } from './lib/timing.js';

const PLAYLISTS = Number(process.env.BENCH_PLAYLISTS ?? 50);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 15);

/** Median milliseconds of `CALLS` sequential GETs of `url` (after two warm-up calls). */
async function timed(app: FastifyInstance, url: string): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < CALLS + 2; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url });
    if (res.statusCode !== 200 || !res.body.includes('"ok"'))
      throw new Error(`${url}: ${res.body.slice(0, 200)}`);
    if (i >= 2) ms.push(performance.now() - start);
  }
  return median(ms);
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-subsonic-playlists-'));
  try {
    await withBenchMusic(dataDir, async ({ app, connections }) => {
      const big = await signup(app, 'bench_big');
      const reader = await signup(app, 'bench_reader');
      const tracks = await seedReadyTracks(connections, big.id, 100);
      for (let p = 0; p < PLAYLISTS; p++) {
        const playlist = await connections.prisma.playlist.create({
          data: { ownerUserId: big.id, name: `big ${p}`, public: true },
        });
        await connections.prisma.playlistEntry.createMany({
          data: Array.from({ length: ENTRIES }, (_, position) => ({
            playlistId: playlist.id,
            trackId: tracks[position % tracks.length]!,
            position,
          })),
        });
      }
      const key = await app.inject({
        method: 'POST',
        url: '/api/v1/me/client-keys',
        headers: { authorization: `Bearer ${reader.token}` },
        payload: { name: 'bench' },
      });
      const apiKey = key.json<{ key: string }>().key;
      const url = (endpoint: string) => `/rest/${endpoint}.view?apiKey=${apiKey}&f=json`;
      const ping = await timed(app, url('ping'));
      const lists = await timed(app, url('getPlaylists'));
      const load = loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
      console.log(
        [
          `getPlaylists over ${PLAYLISTS} public playlists x ${ENTRIES} entries, ${CALLS} sequential calls, load average ${load}`,
          '| call | median ms | ratio to ping |',
          '| --- | ---: | ---: |',
          `| ping | ${ping.toFixed(2)} | 1.0 |`,
          `| getPlaylists | ${lists.toFixed(2)} | ${(lists / ping).toFixed(1)} |`,
        ].join('\n'),
      );
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
