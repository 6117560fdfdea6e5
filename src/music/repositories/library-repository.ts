/**
 * Library imports in PostgreSQL: each run (library_imports), what it could not import
 * (library_import_problems) and what every imported file became (library_files). A file's asset,
 * track, version and row are written in one transaction: a killed import leaves none half-made.
 */
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';
import type { PrismaClient } from './prisma.js';
import { retryConflicts } from './conflict-retry.js';

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
  status: ImportStatus;
  error: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
}

export interface LibraryFileRecord {
  id: string;
  path: string;
  size: bigint;
  mtimeMs: number;
  sha256: string;
  coverSha256: string | null;
  embeddedCover: boolean;
  trackId: string | null;
  versionId: string | null;
  seenBy: string;
}

export interface ImportProblem {
  path: string;
  /** failed: could not be imported; skipped: not audio or already there; missing/removed: gone from the folder. */
  kind: 'failed' | 'skipped' | 'missing' | 'removed';
  reason: string;
}

/** One file's facts as they will be stored. */
export interface ImportedFile {
  importId: string;
  ownerUserId: string;
  root: string;
  path: string;
  size: number;
  mtimeMs: number;
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

export const RUNNER_STALE_MS = 10_000;

function importOf(row: Prisma.LibraryImportGetPayload<object>): ImportRecord {
  return { ...row, status: row.status as ImportStatus };
}

export class PrismaLibraryRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async createImport(input: {
    ownerUserId: string;
    requestedBy: string | null;
    root: string;
    visibility: Visibility;
    prune: boolean;
  }): Promise<ImportRecord> {
    return importOf(await this.prisma.libraryImport.create({ data: input }));
  }

  async findImport(id: string): Promise<ImportRecord | undefined> {
    const row = await this.prisma.libraryImport.findUnique({ where: { id } });
    return row ? importOf(row) : undefined;
  }

  /** The owner's last import of this folder that did not finish (to resume), if any. */
  async findUnfinished(ownerUserId: string, root: string): Promise<ImportRecord | undefined> {
    const row = await this.prisma.libraryImport.findFirst({
      where: { ownerUserId, root, status: { in: ['queued', 'running', 'paused'] } },
      orderBy: { createdAt: 'desc' },
    });
    return row ? importOf(row) : undefined;
  }

  async listImports(limit: number): Promise<ImportRecord[]> {
    const rows = await this.prisma.libraryImport.findMany({ orderBy: { createdAt: 'desc' }, take: limit });
    return rows.map(importOf);
  }

  /** Takes the run for `runner` unless another live process holds it (heartbeat younger than RUNNER_STALE_MS). */
  async claim(id: string, runner: string, options: { prune?: boolean } = {}): Promise<boolean> {
    const stale = new Date(Date.now() - RUNNER_STALE_MS);
    const { count } = await this.prisma.libraryImport.updateMany({
      where: {
        id,
        status: { in: ['queued', 'running', 'paused'] },
        OR: [{ runner: null }, { heartbeatAt: null }, { heartbeatAt: { lt: stale } }],
      },
      data: {
        runner,
        heartbeatAt: new Date(),
        status: 'running',
        error: null,
        ...(options.prune === undefined ? {} : { prune: options.prune }),
      },
    });
    if (count === 1)
      await this.prisma.libraryImport.updateMany({
        where: { id, startedAt: null },
        data: { startedAt: new Date() },
      });
    return count === 1;
  }

  /** Adds what the run counted since the last beat; answers the status (an admin may have paused it). */
  async heartbeat(
    id: string,
    runner: string,
    delta: Partial<ImportCounters>,
  ): Promise<ImportRecord | undefined> {
    const increments = Object.fromEntries(
      Object.entries(delta)
        .filter(([, n]) => n !== 0)
        .map(([k, n]) => [k, { increment: n }]),
    );
    await this.prisma.libraryImport.updateMany({
      where: { id, runner },
      data: { ...increments, heartbeatAt: new Date() },
    });
    return this.findImport(id);
  }

  async release(
    id: string,
    runner: string,
    status: ImportStatus,
    fields: Partial<ImportCounters> & { error?: string | null } = {},
  ): Promise<void> {
    await this.prisma.libraryImport.updateMany({
      where: { id, runner },
      data: {
        ...fields,
        status,
        runner: null,
        heartbeatAt: null,
        ...(status === 'done' || status === 'failed' ? { finishedAt: new Date() } : {}),
      },
    });
  }

  /** queued/running -> paused, or paused -> queued; false when the import was not in `from`. */
  async setStatus(id: string, from: ImportStatus[], to: ImportStatus): Promise<boolean> {
    const { count } = await this.prisma.libraryImport.updateMany({
      where: { id, status: { in: from } },
      data: { status: to },
    });
    return count === 1;
  }

  async addProblem(importId: string, problem: ImportProblem): Promise<void> {
    await this.prisma.libraryImportProblem.upsert({
      where: { importId_path: { importId, path: problem.path } },
      create: { importId, ...problem },
      update: { kind: problem.kind, reason: problem.reason },
    });
  }

  async listProblems(importId: string, limit: number): Promise<ImportProblem[]> {
    const rows = await this.prisma.libraryImportProblem.findMany({
      where: { importId },
      orderBy: { id: 'asc' },
      take: limit,
      select: { path: true, kind: true, reason: true },
    });
    return rows.map((r) => ({ ...r, kind: r.kind as ImportProblem['kind'] }));
  }

  async countProblems(importId: string): Promise<{ failed: number; skipped: number }> {
    const rows = await this.prisma.libraryImportProblem.groupBy({
      by: ['kind'],
      where: { importId },
      _count: { _all: true },
    });
    const n = (kind: string): number => rows.find((r) => r.kind === kind)?._count._all ?? 0;
    return { failed: n('failed'), skipped: n('skipped') };
  }

  async findFile(ownerUserId: string, root: string, path: string): Promise<LibraryFileRecord | undefined> {
    const row = await this.prisma.libraryFile.findUnique({
      where: { ownerUserId_root_path: { ownerUserId, root, path } },
    });
    return row ?? undefined;
  }

  /** Where the owner already has this content: a library file's path, or "an upload". */
  async findContent(ownerUserId: string, sha256: string): Promise<string | undefined> {
    const file = await this.prisma.libraryFile.findFirst({
      where: { ownerUserId, sha256, trackId: { not: null } },
      select: { root: true, path: true },
    });
    if (file) return `${file.root}/${file.path}`;
    const asset = await this.prisma.asset.findFirst({
      where: { ownerUserId, sha256, status: 'uploaded', versions: { some: {} } },
      select: { filename: true },
    });
    return asset ? `an upload (${asset.filename})` : undefined;
  }

  /** The file was seen by this import (size and time as now found: its content is unchanged). */
  async markSeen(fileId: string, importId: string, stat?: { size: number; mtimeMs: number }): Promise<void> {
    await this.prisma.libraryFile.update({
      where: { id: fileId },
      data: { seenBy: importId, ...(stat ? { size: BigInt(stat.size), mtimeMs: stat.mtimeMs } : {}) },
    });
  }

  private fileColumns(file: ImportedFile) {
    return {
      size: BigInt(file.size),
      mtimeMs: file.mtimeMs,
      sha256: file.sha256,
      coverSha256: file.coverSha256,
      embeddedCover: file.embeddedCover,
      seenBy: file.importId,
    };
  }

  private assetUpsert(tx: Prisma.TransactionClient, file: ImportedFile) {
    return tx.asset.upsert({
      where: { objectKey: file.objectKey },
      update: {},
      create: {
        id: randomUUID(),
        ownerUserId: file.ownerUserId,
        objectKey: file.objectKey,
        filename: file.filename,
        contentType: file.contentType,
        size: BigInt(file.size),
        sha256: file.sha256,
        status: 'uploaded',
        probe: file.probe,
      },
    });
  }

  /** A new track of one version from a new file, with its asset and row, counted as imported. */
  async recordNew(
    file: ImportedFile,
    track: { title: string; visibility: Visibility },
  ): Promise<StartedVersion> {
    return retryConflicts(() =>
      this.prisma.$transaction(async (tx) => {
        const asset = await this.assetUpsert(tx, file);
        const made = await tx.track.create({
          data: { ownerUserId: file.ownerUserId, title: track.title, visibility: track.visibility },
        });
        const version = await tx.trackVersion.create({
          data: { ...file.versionFields, trackId: made.id, assetId: asset.id, number: 1 },
        });
        await tx.libraryFile.upsert({
          where: {
            ownerUserId_root_path: { ownerUserId: file.ownerUserId, root: file.root, path: file.path },
          },
          create: {
            ownerUserId: file.ownerUserId,
            root: file.root,
            path: file.path,
            ...this.fileColumns(file),
            trackId: made.id,
            versionId: version.id,
          },
          update: { ...this.fileColumns(file), trackId: made.id, versionId: version.id },
        });
        await tx.libraryImport.update({ where: { id: file.importId }, data: { imported: { increment: 1 } } });
        return { id: version.id, trackId: made.id, assetId: asset.id };
      }),
    );
  }

  /** A new version of the file's track (its content or cover changed), counted as updated. */
  async recordChanged(fileId: string, trackId: string, file: ImportedFile): Promise<StartedVersion> {
    return retryConflicts(() =>
      this.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM tracks WHERE id = ${trackId}::uuid FOR NO KEY UPDATE`;
        const asset = await this.assetUpsert(tx, file);
        const last = await tx.trackVersion.aggregate({ where: { trackId }, _max: { number: true } });
        const version = await tx.trackVersion.create({
          data: { ...file.versionFields, trackId, assetId: asset.id, number: (last._max.number ?? 0) + 1 },
        });
        await tx.libraryFile.update({
          where: { id: fileId },
          data: { ...this.fileColumns(file), versionId: version.id },
        });
        await tx.libraryImport.update({ where: { id: file.importId }, data: { updated: { increment: 1 } } });
        return { id: version.id, trackId, assetId: asset.id };
      }),
    );
  }

  /** Versions this import recorded whose flow may never have been enqueued (the run was killed). */
  async pendingVersions(
    importId: string,
  ): Promise<(StartedVersion & { objectKey: string; coverSha256: string | null })[]> {
    const rows = await this.prisma.libraryFile.findMany({
      where: { seenBy: importId, versionId: { not: null } },
      select: { versionId: true, coverSha256: true, embeddedCover: true },
    });
    const ids = rows.map((r) => r.versionId as string);
    const versions = await this.prisma.trackVersion.findMany({
      where: { id: { in: ids }, status: 'pending' },
      select: { id: true, trackId: true, assetId: true, asset: { select: { objectKey: true } } },
    });
    const cover = new Map(rows.map((r) => [r.versionId, r.embeddedCover ? null : r.coverSha256]));
    return versions.map((v) => ({
      id: v.id,
      trackId: v.trackId,
      assetId: v.assetId,
      objectKey: v.asset.objectKey,
      coverSha256: cover.get(v.id) ?? null,
    }));
  }

  /** Files of this folder the finished walk did not see. */
  async missingFiles(ownerUserId: string, root: string, importId: string): Promise<LibraryFileRecord[]> {
    return this.prisma.libraryFile.findMany({
      where: { ownerUserId, root, NOT: { seenBy: importId } },
      orderBy: { path: 'asc' },
    });
  }

  async deleteFile(id: string): Promise<void> {
    await this.prisma.libraryFile.deleteMany({ where: { id } });
  }
}
