/** What the scenarios do as users of the music platform, through `lb` (real HTTPS). */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { uploadAsTrack, type NewTrack } from '../../load-tests/scenarios/upload-burst.js';
import type { Cluster } from './cluster.js';
import { LB } from './cluster.js';
import { until } from './processes.js';

export interface UploadedTrack extends NewTrack {
  versionId: string;
}

/** A new account uploads `wav`, makes a public track of it and adds it as the track's version. */
export async function uploadTrack(cluster: Cluster, wav: Buffer, address: string): Promise<UploadedTrack> {
  const track = await uploadAsTrack(LB, address, wav, 'Cluster track');
  const [row] = await cluster.data.query<{ id: string }>(
    'SELECT id FROM track_versions WHERE track_id = $1',
    'music',
    [track.trackId],
  );
  return { ...track, versionId: row!.id };
}

export async function versionStatus(cluster: Cluster, versionId: string): Promise<string> {
  const [row] = await cluster.data.query<{ status: string }>(
    'SELECT status FROM track_versions WHERE id = $1',
    'music',
    [versionId],
  );
  return row!.status;
}

export async function untilReady(cluster: Cluster, versionIds: string[], seconds = 300): Promise<void> {
  await until(`versions ${versionIds.join(', ')} ready`, seconds, async () => {
    const statuses = await Promise.all(versionIds.map((v) => versionStatus(cluster, v)));
    if (statuses.includes('failed')) throw new Error(`a version failed: ${statuses.join(', ')}`);
    return statuses.every((s) => s === 'ready');
  });
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries.map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return files.flat();
}

/**
 * Every published object of a version (the transcodes, waveforms and images buckets, read from
 * s3rver's directory on the data host): `bucket/name` -> sha256 of its bytes.
 */
export async function versionOutputs(cluster: Cluster, versionId: string): Promise<Map<string, string>> {
  const root = join(cluster.dir, 'data', 's3');
  const out = new Map<string, string>();
  for (const file of await walk(root)) {
    if (!file.endsWith('._S3rver_object')) continue;
    const [bucket, ...rest] = relative(root, file).split('/');
    if (rest[0] !== versionId) continue;
    const name = `${bucket}/${rest
      .slice(1)
      .join('/')
      .replace(/\._S3rver_object$/, '')}`;
    out.set(
      name,
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  }
  return out;
}

/** Staging keys an attempt left (a killed attempt's uploads that were never moved into place). */
export async function stagingLeft(cluster: Cluster, versionId: string): Promise<number> {
  const root = join(cluster.dir, 'data', 's3');
  return (await walk(root)).filter(
    (f) => f.includes(`/staging/${versionId}/`) && f.endsWith('._S3rver_object'),
  ).length;
}
