/**
 * The second backup target: each finished backup file is copied to an S3-protocol bucket on
 * another host (any provider, or a SeaweedFS elsewhere), so a lost disk does not take the
 * backups with the data. Configured by BACKUP_OFFSITE_*; retention there is the bucket's own
 * lifecycle rule (docs/operations.md).
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import {
  CreateBucketCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Type } from 'typebox';
import { ConfigError, parseEnv } from '../core/env.js';
import { createS3Client } from '../music/repositories/object-store/s3-store.js';

export const OffsiteEnv = Type.Object({
  BACKUP_OFFSITE_ENDPOINT: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'S3-protocol endpoint of the second target' }),
  ),
  BACKUP_OFFSITE_BUCKET: Type.Optional(
    Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', description: 'bucket for the copies' }),
  ),
  BACKUP_OFFSITE_ACCESS_KEY: Type.Optional(Type.String()),
  BACKUP_OFFSITE_SECRET_KEY: Type.Optional(Type.String()),
  BACKUP_OFFSITE_REGION: Type.String({ default: 'us-east-1' }),
});

export interface OffsiteTarget {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const NAMES = [
  'BACKUP_OFFSITE_ENDPOINT',
  'BACKUP_OFFSITE_BUCKET',
  'BACKUP_OFFSITE_ACCESS_KEY',
  'BACKUP_OFFSITE_SECRET_KEY',
] as const;

/** The target, undefined when none is configured; a half configuration is an error naming what is missing. */
export function offsiteTarget(env: NodeJS.ProcessEnv): OffsiteTarget | undefined {
  const e = parseEnv(OffsiteEnv, env);
  const missing = NAMES.filter((n) => e[n] === undefined);
  if (missing.length === NAMES.length) return undefined;
  if (missing.length > 0)
    throw new ConfigError([`${missing.join(', ')}: an off-site copy needs all of ${NAMES.join(', ')}`]);
  return {
    endpoint: e.BACKUP_OFFSITE_ENDPOINT!,
    bucket: e.BACKUP_OFFSITE_BUCKET!,
    region: e.BACKUP_OFFSITE_REGION,
    accessKeyId: e.BACKUP_OFFSITE_ACCESS_KEY!,
    secretAccessKey: e.BACKUP_OFFSITE_SECRET_KEY!,
  };
}

/** Uploads `file` under its own name (streamed, multipart when large) and checks its size there. */
export async function copyOffsite(file: string, target: OffsiteTarget, size: number): Promise<void> {
  const client = createS3Client({ ...target, bucketPrefix: '' });
  try {
    try {
      await client.send(new HeadBucketCommand({ Bucket: target.bucket }));
    } catch {
      await client.send(new CreateBucketCommand({ Bucket: target.bucket }));
    }
    const Key = basename(file);
    await new Upload({ client, params: { Bucket: target.bucket, Key, Body: createReadStream(file) } }).done();
    const head = await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key }));
    if (head.ContentLength !== size)
      throw new Error(`off-site copy of ${Key}: ${head.ContentLength ?? 'no'} bytes stored, ${size} sent`);
  } finally {
    client.destroy();
  }
}

/** Names of the database dumps in the target's bucket (for `ops check`). */
export async function offsiteDumps(target: OffsiteTarget): Promise<string[]> {
  const client = createS3Client({ ...target, bucketPrefix: '' });
  const names: string[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: target.bucket, Prefix: 'db-', ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) names.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return names;
}
