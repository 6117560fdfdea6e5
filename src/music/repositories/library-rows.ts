/** An import's record, a library file's row, and the rows one imported file becomes (asset, version columns, file). */
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';

export type ImportStatus = 'queued' | 'running' | 'paused' | 'done' | 'failed';

export interface ImportCounters {
  scanned: number;
  imported: number;
  updated: number;
  skipped: number;
  failed: number;
  missing: number;
  removed: number;
}

export interface ImportRecord extends ImportCounters {
  id: string;
  ownerUserId: string;
  requestedBy: string | null;
  root: string;
  visibility: Visibility;
  prune: boolean;
  /** Files read in place (not copied into the originals store). */
  inPlace: boolean;
  status: ImportStatus;
  error: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
}

export interface ImportProblem {
  path: string;
  /** failed: could not be imported; skipped: not audio or already there; missing/removed: gone from the folder. */
  kind: 'failed' | 'skipped' | 'missing' | 'removed';
  reason: string;
}

export interface LibraryFileRecord {
  id: string;
  path: string;
  size: bigint;
  mtimeMs: number;
  inode: bigint | null;
  sha256: string;
  coverSha256: string | null;
  embeddedCover: boolean;
  trackId: string | null;
  versionId: string | null;
  seenBy: string;
}

/** One file's facts as they will be stored. */
export interface ImportedFile {
  importId: string;
  ownerUserId: string;
  root: string;
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
  sha256: string;
  coverSha256: string | null;
  embeddedCover: boolean;
  objectKey: string;
  filename: string;
  contentType: string;
  /** The AudioProbe, stored on the asset as an upload's is. */
  probe: object;
  /** The version's columns (track-service.ts versionFields). */
  versionFields: Omit<Prisma.TrackVersionUncheckedCreateInput, 'trackId' | 'assetId' | 'number'>;
}

export interface StartedVersion {
  id: string;
  trackId: string;
  assetId: string;
}

/** An inode as PostgreSQL's BIGINT holds it (inodes of 2^63 and over wrap to negatives, one to one). */
export function inodeColumn(ino: number): bigint {
  return BigInt.asIntN(64, BigInt(ino));
}

export function fileColumns(file: ImportedFile) {
  return {
    size: BigInt(file.size),
    mtimeMs: file.mtimeMs,
    inode: inodeColumn(file.ino),
    sha256: file.sha256,
    coverSha256: file.coverSha256,
    embeddedCover: file.embeddedCover,
    seenBy: file.importId,
  };
}

export function assetRow(file: ImportedFile) {
  return {
    id: randomUUID(),
    ownerUserId: file.ownerUserId,
    objectKey: file.objectKey,
    filename: file.filename,
    contentType: file.contentType,
    size: BigInt(file.size),
    sha256: file.sha256,
    status: 'uploaded',
    probe: file.probe,
  } satisfies Prisma.AssetUncheckedCreateInput;
}
