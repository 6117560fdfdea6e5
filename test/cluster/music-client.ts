/** What the scenarios do as users of the music platform, through `lb` (real HTTPS). */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { newUploadRows, uploadOne } from '../../load-tests/scenarios/upload-burst.js';
import type { Cluster } from './cluster.js';
import { LB } from './cluster.js';
import { until } from './processes.js';

export interface UploadedTrack {
  trackId: string;
  versionId: string;
  token: string;
  headers: Record<string, string>;
}

/** A new account uploads `wav`, makes a public track of it and adds it as the track's version. */
export async function uploadTrack(cluster: Cluster, wav: Buffer, address: string): Promise<UploadedTrack> {
  const uploaded = await uploadOne(LB, address, wav, newUploadRows());
  if ('failure' in uploaded) throw new Error(`upload: ${uploaded.failure}`);
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${uploaded.token}`,
    'x-forwarded-for': address,
  };
  const created = await fetch(`${LB}/api/v1/tracks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: 'Cluster track', visibility: 'public' }),
  });
  if (created.status !== 201) throw new Error(`track: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const added = await fetch(`${LB}/api/v1/tracks/${id}/versions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ asset_id: uploaded.assetId }),
  });
  if (added.status !== 202) throw new Error(`version: ${added.status} ${await added.text()}`);
  const [row] = await cluster.data.query<{ id: string }>(
    'SELECT id FROM track_versions WHERE track_id = $1',
    'music',
    [id],
  );
  return { trackId: id, versionId: row!.id, token: uploaded.token, headers };
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
