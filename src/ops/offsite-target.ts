/**
 * Where the off-site copies of backups go (repositories/offsite-copy.ts copies them), from
 * BACKUP_OFFSITE_*; retention there is the bucket's own lifecycle rule (docs/operations.md).
 */
import { Type } from 'typebox';
import { ConfigError, parseEnv } from '../core/env.js';

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
