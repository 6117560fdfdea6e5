/**
 * Test helpers for the music tests: the real components provided by the global set-up, and
 * unique names so that tests never share Redis keys, buckets or rows.
 */
import { randomBytes } from 'node:crypto';
import type { S3Settings } from '../../src/music/config.js';

export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the tests through vitest (test/global-setup.ts provides it)`);
  return value;
}

export function testDatabaseUrl(): string {
  return required('TEST_DATABASE_URL');
}

/** A Redis key prefix unique to this run and this call. */
export function testKeyPrefix(): string {
  return `test:${required('TEST_RUN_ID')}:${uniqueSuffix()}:`;
}

/** S3 settings for the run's s3rver; bucket names start with `bucketPrefix` (lower-case). */
export function s3Settings(bucketPrefix: string): S3Settings {
  return {
    endpoint: required('TEST_S3_ENDPOINT'),
    region: 'us-east-1',
    accessKeyId: required('TEST_S3_ACCESS_KEY'),
    secretAccessKey: required('TEST_S3_SECRET_KEY'),
    bucketPrefix,
  };
}

/** The music app's and worker's environment for the S3 store on the run's s3rver. */
export function s3StoreEnv(bucketPrefix: string): Record<string, string> {
  const s3 = s3Settings(bucketPrefix);
  return {
    OBJECT_STORE_ENDPOINT: s3.endpoint,
    OBJECT_STORE_ROOT_USER: s3.accessKeyId,
    OBJECT_STORE_ROOT_PASSWORD: s3.secretAccessKey,
    OBJECT_STORE_BUCKET_PREFIX: s3.bucketPrefix,
  };
}

/** A BullMQ prefix unique to this run and this call (letters, digits, _ and -). */
export function testQueuePrefix(): string {
  return `test-${required('TEST_RUN_ID')}-${uniqueSuffix()}`;
}
