/**
 * Library rows written straight through Prisma, as upload and finalize leave them: an uploaded
 * asset, a ready version with the given tags, made its track's current version (which is what
 * the Subsonic library triggers react to); and the client keys its tests call /rest/ with.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MusicConnections } from '../../src/music/repositories/connections.js';
import { uniqueSuffix } from './music-env.js';

export interface VersionTags {
  title?: string | null;
  artist: string;
  album: string;
}

/** Adds a ready version with these tags to the track and makes it current; returns its id. */
export async function addReadyVersion(
  connections: MusicConnections,
  trackId: string,
  ownerUserId: string,
  tags: VersionTags,
): Promise<string> {
  const { prisma } = connections;
  const asset = await prisma.asset.create({
    data: {
      ownerUserId,
      objectKey: `${ownerUserId}/${randomUUID()}`,
      filename: 'song.flac',
      contentType: 'audio/flac',
      size: 1000n,
      status: 'uploaded',
    },
  });
  const count = await prisma.trackVersion.count({ where: { trackId } });
  const version = await prisma.trackVersion.create({
    data: {
      trackId,
      number: count + 1,
      assetId: asset.id,
      status: 'ready',
      durationMs: 60_000,
      tagTitle: tags.title === undefined ? `Song ${uniqueSuffix()}` : tags.title,
      tagArtist: tags.artist,
      tagAlbum: tags.album,
    },
  });
  await prisma.track.update({ where: { id: trackId }, data: { currentVersionId: version.id } });
  return version.id;
}

/** A Subsonic client key for each user (POST /api/v1/me/client-keys), by user id. */
export async function clientKeys(
  app: FastifyInstance,
  users: readonly { id: string; headers: { authorization: string } }[],
): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const user of users) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: user.headers,
      payload: { name: 'library test' },
    });
    if (res.statusCode !== 201) throw new Error(`client key: ${res.statusCode} ${res.body}`);
    keys.set(user.id, res.json<{ key: string }>().key);
  }
  return keys;
}
