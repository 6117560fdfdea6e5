/**
 * The second backup target (offsite-target.ts): each finished backup file is copied to an S3-protocol bucket on
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
import type { OffsiteTarget } from '../offsite-target.js';
import { createS3Client } from '../../music/repositories/object-store/s3-store.js';

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
