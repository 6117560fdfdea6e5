/**
 * Tracks a browser can play without the worker: a ready version whose HLS (one AAC rendition made
 * by ffmpeg, `seconds` long) and cover are in the run's stores, with the tags the library lists.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import type { MusicTestApp } from './music-app.js';
import { PASSWORD, type TestUser } from './music-domain.js';
import { addReadyVersion } from './library-rows.js';
import { run } from './generated-audio.js';

export interface PlayableTags {
  title: string;
  artist: string;
  album: string;
  trackNumber?: number;
}

/** Puts an HLS rendition of a `seconds`-long tone and a 300 px cover under `versionId/` in the stores. */
async function publishMedia(t: MusicTestApp, versionId: string, seconds: number, hz: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'playable-'));
  try {
    await run(
      'ffmpeg',
      [
        ...['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=${seconds}`],
        ...['-c:a', 'aac', '-b:a', '64k', '-ac', '2', '-f', 'hls', '-hls_time', '2'],
        ...[
          '-hls_playlist_type',
          'vod',
          '-hls_segment_type',
          'fmp4',
          '-hls_segment_filename',
          'r0/seg%d.m4s',
        ],
        ...['-master_pl_name', 'master.m3u8', '-var_stream_map', 'a:0', 'r%v/index.m3u8'],
      ],
      { cwd: dir },
    );
    await run('ffmpeg', [
      ...[
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `color=c=0x${(0x204060 + hz * 97).toString(16).slice(-6)}:s=300x300`,
      ],
      ...['-frames:v', '1', join(dir, 'cover.jpg')],
    ]);
    for (const name of ['master.m3u8', ...(await readdir(join(dir, 'r0'))).map((f) => `r0/${f}`)])
      await t.connections.stores.transcodes.put(`${versionId}/${name}`, await readFile(join(dir, name)));
    await t.connections.stores.images.put(
      `${versionId}/cover-300.jpg`,
      await readFile(join(dir, 'cover.jpg')),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A public track of `owner` with one ready, playable version; returns the track's id. */
export async function playableTrack(
  t: MusicTestApp,
  owner: TestUser,
  tags: PlayableTags,
  seconds: number,
  hz = 440,
): Promise<{ trackId: string; versionId: string }> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/tracks',
    headers: owner.headers,
    payload: { title: tags.title },
  });
  if (created.statusCode !== 201) throw new Error(`track: ${created.statusCode} ${created.body}`);
  const trackId = created.json<{ id: string }>().id;
  const versionId = await addReadyVersion(t.connections, trackId, owner.id, {
    title: tags.title,
    artist: tags.artist,
    album: tags.album,
  });
  await publishMedia(t, versionId, seconds, hz);
  await t.connections.prisma.trackVersion.update({
    where: { id: versionId },
    data: {
      hlsKey: versionId,
      durationMs: seconds * 1000,
      artworkKey: `${versionId}/cover-300.jpg`,
      ...(tags.trackNumber !== undefined ? { tagTrackNumber: tags.trackNumber } : {}),
    },
  });
  return { trackId, versionId };
}

/** Logs `who` in through the page (music-domain's password), as a person does. */
export async function logInAs(page: Page, base: string, who: TestUser): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Handle or email').fill(who.handle);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(`${base}/users/${who.handle}`);
}

/** The library's id of the album named `name` (search). */
export async function albumIdByName(app: FastifyInstance, name: string): Promise<string> {
  const answer = await app.inject({
    method: 'GET',
    url: `/api/v1/search?q=${encodeURIComponent(name)}&limit=5`,
  });
  const found = answer.json<{ albums: { id: string; name: string }[] }>().albums.find((a) => a.name === name);
  if (!found) throw new Error(`no album ${name} in ${answer.body}`);
  return found.id;
}
