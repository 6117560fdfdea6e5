import { uniqueViolation } from './prisma.js';
/**
 * Library imports in PostgreSQL: each run (library_imports), what it could not import
 * (library_import_problems) and what every imported file became (library_files). A file's asset,
 * track, version and row are written in one transaction: a killed import leaves none half-made.
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';
import {
  assetRow,
  fileColumns,
  inodeColumn,
  type ImportCounters,
  type ImportedFile,
  type ImportProblem,
  type ImportRecord,
  type ImportStatus,
  type LibraryFileRecord,
  type StartedVersion,
} from './library-rows.js';
import type { PrismaClient } from './prisma.js';
import { retryConflicts } from './conflict-retry.js';
import { recordNewFiles, type NewFileItem } from './library-batch-sql.js';

export type {
  ImportCounters,
  ImportedFile,
  ImportProblem,
  ImportRecord,
  ImportStatus,
  LibraryFileRecord,
  StartedVersion,
} from './library-rows.js';

export const RUNNER_STALE_MS = 10_000;

function uploadShown(filename: string): string {
  return `an upload (${filename})`;
}

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
    /** Unset: the files are copied into the originals store. */
    inPlace?: boolean;
  }): Promise<ImportRecord> {
    return importOf(await this.prisma.libraryImport.create({ data: input }));
  }

  /** A new import, or the unfinished one of this owner and folder a parallel start made first. */
  async createUnlessUnfinished(
    input: Parameters<PrismaLibraryRepository['createImport']>[0],
  ): Promise<{ record: ImportRecord; created: boolean }> {
    try {
      return { record: await this.createImport(input), created: true };
    } catch (err) {
      if (uniqueViolation(err) === undefined) throw err;
      const existing = await this.findUnfinished(input.ownerUserId, input.root);
      if (!existing) throw err;
      return { record: existing, created: false };
    }
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
  ): Promise<{ record: ImportRecord | undefined; held: boolean }> {
    const increments = Object.fromEntries(
      Object.entries(delta)
        .filter(([, n]) => n !== 0)
        .map(([k, n]) => [k, { increment: n }]),
    );
    const { count } = await this.prisma.libraryImport.updateMany({
      where: { id, runner },
      data: { ...increments, heartbeatAt: new Date() },
    });
    return { record: await this.findImport(id), held: count === 1 };
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

  /**
   * paused -> queued. `held`: the run that was stopping after the pause still holds the import
   * (heartbeat under RUNNER_STALE_MS) and goes on itself (stopUnlessResumed), so none is started.
   */
  async resume(id: string): Promise<{ resumed: boolean; held: boolean }> {
    const live = new Date(Date.now() - RUNNER_STALE_MS);
    const rows = await this.prisma.$queryRaw<{ held: boolean }[]>`
      UPDATE library_imports SET status = 'queued', updated_at = now()
      WHERE id = ${id}::uuid AND status = 'paused'
      RETURNING (runner IS NOT NULL AND heartbeat_at >= ${live}::timestamptz) AS held`;
    return { resumed: rows.length === 1, held: rows[0]?.held === true };
  }

  /**
   * queued/running with a runner that stopped beating (a process killed after it took a resume),
   * or queued by no one for a while (its job lost): let go, for a new run to claim. True for the
   * one caller that let it go (a second job for one still waiting is harmless: claims serialise).
   */
  async letGoIfAbandoned(id: string): Promise<boolean> {
    const stale = new Date(Date.now() - RUNNER_STALE_MS);
    const { count } = await this.prisma.libraryImport.updateMany({
      where: {
        id,
        OR: [
          { status: { in: ['queued', 'running'] }, runner: { not: null }, heartbeatAt: { lt: stale } },
          { status: 'queued', runner: null, updatedAt: { lt: stale } },
        ],
      },
      data: { status: 'queued', runner: null, heartbeatAt: null },
    });
    return count === 1;
  }

  /** A resume the running run saw at a beat (queued again) is taken by it: it walks on. */
  async takeBack(id: string, runner: string): Promise<boolean> {
    const { count } = await this.prisma.libraryImport.updateMany({
      where: { id, runner, status: 'queued' },
      data: { status: 'running', heartbeatAt: new Date() },
    });
    return count === 1;
  }

  /**
   * A run that stopped for a pause: released as paused when that is still the last word; kept
   * (running) when a resume came since, in one statement, so a resume racing the stop is never
   * lost and never starts a second run. Undefined when another runner holds the import now.
   */
  async stopUnlessResumed(id: string, runner: string): Promise<'paused' | 'running' | undefined> {
    const now = new Date();
    const rows = await this.prisma.$queryRaw<{ status: 'paused' | 'running' }[]>`
      UPDATE library_imports SET
        status = CASE WHEN status = 'paused' THEN 'paused' ELSE 'running' END,
        runner = CASE WHEN status = 'paused' THEN NULL ELSE runner END,
        heartbeat_at = CASE WHEN status = 'paused' THEN NULL ELSE ${now}::timestamptz END,
        updated_at = now()
      WHERE id = ${id}::uuid AND runner = ${runner}::uuid AND status IN ('queued', 'running', 'paused')
      RETURNING status`;
    return rows[0]?.status;
  }

  /** queued/running -> paused (a pause); false when the import was not in `from`. */
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

  /** The folder's rows for these paths, by path (one query for a batch of the walk). */
  async findFiles(
    ownerUserId: string,
    root: string,
    paths: string[],
  ): Promise<Map<string, LibraryFileRecord>> {
    const rows = await this.prisma.libraryFile.findMany({
      where: { ownerUserId, root, path: { in: paths } },
    });
    return new Map(rows.map((r) => [r.path, r]));
  }

  /** Where the owner already has each content: a library file's path, or "an upload"; absent when nowhere. */
  async findContents(ownerUserId: string, shas: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (shas.length === 0) return found;
    const files = await this.prisma.libraryFile.findMany({
      where: { ownerUserId, sha256: { in: shas }, trackId: { not: null } },
      select: { root: true, path: true, sha256: true },
    });
    for (const f of files) if (!found.has(f.sha256)) found.set(f.sha256, `${f.root}/${f.path}`);
    const rest = shas.filter((sha) => !found.has(sha));
    if (rest.length === 0) return found;
    const assets = await this.prisma.asset.findMany({
      where: { ownerUserId, sha256: { in: rest }, status: 'uploaded', versions: { some: {} } },
      select: { filename: true, sha256: true },
    });
    for (const a of assets)
      if (a.sha256 && !found.has(a.sha256)) found.set(a.sha256, uploadShown(a.filename));
    return found;
  }

  /**
   * The owner's uploaded content (sha256 -> "an upload (name)"), not imported content: read once
   * a run, so a file an upload already holds is skipped before its bytes are stored.
   */
  async uploadedContents(ownerUserId: string, libraryPrefix: string): Promise<Map<string, string>> {
    const assets = await this.prisma.asset.findMany({
      where: {
        ownerUserId,
        sha256: { not: null },
        status: 'uploaded',
        versions: { some: {} },
        NOT: { objectKey: { startsWith: libraryPrefix } },
      },
      select: { filename: true, sha256: true },
    });
    return new Map(assets.map((a) => [a.sha256 as string, uploadShown(a.filename)]));
  }

  /** Files seen by this import unchanged (size and time as recorded): one statement for the batch. */
  async markSeenMany(fileIds: string[], importId: string): Promise<void> {
    if (fileIds.length > 0)
      await this.prisma.libraryFile.updateMany({
        where: { id: { in: fileIds } },
        data: { seenBy: importId },
      });
  }

  /** The file was seen by this import with the same content under a new size, time or inode. */
  async markSeen(
    fileId: string,
    importId: string,
    stat: { size: number; mtimeMs: number; ino: number },
  ): Promise<void> {
    await this.prisma.libraryFile.update({
      where: { id: fileId },
      data: {
        seenBy: importId,
        size: BigInt(stat.size),
        mtimeMs: stat.mtimeMs,
        inode: inodeColumn(stat.ino),
      },
    });
  }

  /** An in-place file with its content under a new inode (restored, copied back): its asset names the new one. */
  async repointInPlace(versionId: string, objectKey: string): Promise<void> {
    await this.prisma.$executeRaw`UPDATE assets SET object_key = ${objectKey}, updated_at = now()
      WHERE id = (SELECT asset_id FROM track_versions WHERE id = ${versionId}::uuid) AND object_key LIKE 'in-place:%'`;
  }

  private assetUpsert(tx: Prisma.TransactionClient, file: ImportedFile) {
    return tx.asset.upsert({ where: { objectKey: file.objectKey }, update: {}, create: assetRow(file) });
  }

  /**
   * New tracks of one version each from new files, with their assets and rows, counted as
   * imported: one transaction of one statement a table for the whole batch (library-batch-sql.ts).
   */
  recordNewMany(items: NewFileItem[]): Promise<StartedVersion[]> {
    return recordNewFiles(this.prisma, items);
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
          data: { ...fileColumns(file), versionId: version.id },
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
