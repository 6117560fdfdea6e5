/** Benchmark data as the pipeline and listeners leave it: tracks with a ready version, plays, a rollup. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { Prisma } from '../../generated/prisma/client.js';
import type { MusicConfig } from '../../src/music/config.js';
import type { MusicConnections } from '../../src/music/repositories/connections.js';
import { runAnalyticsRollup } from '../../src/music/housekeeping.js';

const MiB = 1024 * 1024;

type VersionFields = Omit<
  Prisma.TrackVersionUncheckedCreateInput,
  'trackId' | 'number' | 'assetId' | 'status'
>;

/** A public track of `ownerUserId` whose current version is ready with `version`'s fields; its id. */
export async function seedReadyTrack(
  connections: MusicConnections,
  ownerUserId: string,
  title: string,
  version: VersionFields,
): Promise<string> {
  const asset = await connections.prisma.asset.create({
    data: {
      ownerUserId,
      objectKey: `${ownerUserId}/${randomUUID()}`,
      filename: `${title}.flac`,
      contentType: 'audio/flac',
      size: 30 * MiB,
      status: 'uploaded',
    },
  });
  const track = await connections.prisma.track.create({
    data: { title, ownerUserId, description: 'benchmark track' },
  });
  const ready = await connections.prisma.trackVersion.create({
    data: { ...version, trackId: track.id, number: 1, assetId: asset.id, status: 'ready' },
  });
  await connections.prisma.track.update({ where: { id: track.id }, data: { currentVersionId: ready.id } });
  return track.id;
}

/** `count` public tracks of `ownerUserId`, each with a ready version (signed URLs, loudness); their ids. */
export async function seedReadyTracks(
  connections: MusicConnections,
  ownerUserId: string,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      await seedReadyTrack(connections, ownerUserId, `Track ${i}`, {
        durationMs: 215_000,
        loudnessIntegrated: -14.2,
        loudnessRange: 6.1,
        truePeak: -1.0,
        replayGain: -3.8,
        hlsKey: `${randomUUID()}/master.m3u8`,
        progressiveKey: `${randomUUID()}/progressive.m4a`,
        waveformKey: `${randomUUID()}/waveform.json`,
        artworkKey: `${randomUUID()}/cover-600.jpg`,
        codec: 'flac',
        bitRate: 1_000_000,
        channels: 2,
        sampleRate: 44_100,
        tagTitle: `Track ${i}`,
        tagArtist: 'Bench',
      }),
    );
  }
  return ids;
}

/** Plays from distinct listeners (1–5 per track) through the API, then the rollup that fills trending. */
export async function seedPlays(
  app: FastifyInstance,
  connections: MusicConnections,
  config: Readonly<MusicConfig>,
  trackIds: string[],
): Promise<void> {
  let listener = 0;
  for (const [i, id] of trackIds.entries()) {
    for (let p = 0; p <= i % 5; p++) {
      listener++;
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/analytics/plays',
        payload: { track_id: id },
        remoteAddress: `10.0.${Math.floor(listener / 250)}.${listener % 250}`,
      });
      if (res.statusCode !== 202) throw new Error(`play: ${res.statusCode} ${res.body}`);
    }
  }
  await runAnalyticsRollup(config, connections);
}

/** A WAV of about `bytes` (a sine tone: ffprobe reads it as the audio it is). */
export async function makeWav(dir: string, bytes: number): Promise<string> {
  const file = join(dir, 'upload.wav');
  const seconds = Math.max(1, Math.floor(bytes / (44_100 * 2 * 2)));
  await promisify(execFile)('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`],
    ...['-ac', '2', '-c:a', 'pcm_s16le', file],
  ]);
  return file;
}

/** A new account through the API (sign-up), its id and bearer token. */
export async function signup(app: FastifyInstance, handle: string): Promise<{ id: string; token: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { handle, email: `${handle}@example.org`, password: 'a long enough passphrase' },
  });
  if (res.statusCode !== 201) throw new Error(`sign-up: ${res.statusCode} ${res.body}`);
  const body = res.json<{ user: { id: string }; token: string }>();
  return { id: body.user.id, token: body.token };
}
