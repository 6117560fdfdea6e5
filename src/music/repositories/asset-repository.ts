/** Uploaded originals (assets) in PostgreSQL. */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { PrismaClient } from './prisma.js';
import { insertWithinBound } from './count-bound.js';

export type AssetStatus = 'uploading' | 'uploaded' | 'aborted';

export interface AssetRecord {
  id: string;
  ownerUserId: string;
  objectKey: string;
  filename: string;
  contentType: string;
  size: bigint;
  sha256: string | null;
  status: AssetStatus;
  multipartUploadId: string | null;
  uploadId: string | null;
  partSize: number | null;
  probe: Prisma.JsonValue;
  createdAt: Date;
}

export interface NewAsset {
  id: string;
  ownerUserId: string;
  objectKey: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string | undefined;
  multipartUploadId: string;
  uploadId: string;
  partSize: number;
}

export interface AssetRepository {
  /** The new upload, unless its owner has `maxUnfinished` uploads still unfinished (undefined then). */
  create(asset: NewAsset, maxUnfinished: number): Promise<AssetRecord | undefined>;
  /**
   * Every part PUT starts here: one raw statement, which Prisma sends without compiling a model
   * query (the cost is in docs/music-domain.md). `uploadId` is a UUID.
   */
  findByUploadId(uploadId: string): Promise<AssetRecord | undefined>;
  findById(id: string): Promise<AssetRecord | undefined>;
  /**
   * uploading -> uploaded, with the type the probe found; undefined when the upload is no longer
   * `uploading` (an abort won the race).
   */
  markUploaded(
    id: string,
    probe: object,
    sha256: string,
    contentType: string,
  ): Promise<AssetRecord | undefined>;
  /**
   * uploading -> aborted; false when it was not `uploading` (a complete won the race). The
   * multipart id stays until the stored bytes are gone (markCleaned): cleanup finds what is left.
   */
  markAborted(id: string): Promise<boolean>;
  /** An aborted upload's parts and object are deleted. */
  markCleaned(id: string): Promise<void>;
  /** Aborted uploads whose parts or object may still be stored. */
  listUncleaned(limit: number): Promise<AssetRecord[]>;
  /** Uploads still unfinished that were started before `before`. */
  listStale(before: Date, limit: number): Promise<AssetRecord[]>;
}

export class PrismaAssetRepository implements AssetRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(asset: NewAsset, maxUnfinished: number): Promise<AssetRecord | undefined> {
    return insertWithinBound(this.prisma, {
      kind: 'unfinishedUploads',
      ownerId: asset.ownerUserId,
      max: maxUnfinished,
      count: (tx) => tx.asset.count({ where: { ownerUserId: asset.ownerUserId, status: 'uploading' } }),
      insert: (tx) =>
        tx.asset.create({ data: { ...asset, size: BigInt(asset.size), sha256: asset.sha256 ?? null } }),
    });
  }

  /**
   * Every part PUT starts here: one raw statement, which Prisma sends without compiling a model
   * query (the cost is in docs/music-domain.md). `uploadId` is a UUID.
   */
  async findByUploadId(uploadId: string): Promise<AssetRecord | undefined> {
    const rows = await this.prisma.$queryRaw<AssetRecord[]>`
      SELECT id, owner_user_id AS "ownerUserId", object_key AS "objectKey", filename,
             content_type AS "contentType", size, sha256, status::text AS status,
             multipart_upload_id AS "multipartUploadId", upload_id AS "uploadId", part_size AS "partSize",
             probe, created_at AS "createdAt"
      FROM assets WHERE upload_id = ${uploadId}::uuid`;
    return rows[0];
  }

  async findById(id: string): Promise<AssetRecord | undefined> {
    return (await this.prisma.asset.findUnique({ where: { id } })) ?? undefined;
  }

  /**
   * uploading -> uploaded, with the type the probe found; undefined when the upload is no longer
   * `uploading` (an abort won the race).
   */
  async markUploaded(
    id: string,
    probe: object,
    sha256: string,
    contentType: string,
  ): Promise<AssetRecord | undefined> {
    const { count } = await this.prisma.asset.updateMany({
      where: { id, status: 'uploading' },
      data: {
        status: 'uploaded',
        probe,
        sha256,
        contentType,
        multipartUploadId: null,
        uploadId: null,
      },
    });
    return count === 1 ? this.findById(id) : undefined;
  }

  /**
   * uploading -> aborted; false when it was not `uploading` (a complete won the race). The
   * multipart id stays until the stored bytes are gone (markCleaned): cleanup finds what is left.
   */
  async markAborted(id: string): Promise<boolean> {
    const { count } = await this.prisma.asset.updateMany({
      where: { id, status: 'uploading' },
      data: { status: 'aborted', uploadId: null },
    });
    return count === 1;
  }

  /** An aborted upload's parts and object are deleted. */
  async markCleaned(id: string): Promise<void> {
    await this.prisma.asset.updateMany({
      where: { id, status: 'aborted' },
      data: { multipartUploadId: null },
    });
  }

  /** Aborted uploads whose parts or object may still be stored. */
  listUncleaned(limit: number): Promise<AssetRecord[]> {
    return this.prisma.asset.findMany({
      where: { status: 'aborted', multipartUploadId: { not: null } },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
  }

  /** Uploads still unfinished that were started before `before`. */
  listStale(before: Date, limit: number): Promise<AssetRecord[]> {
    return this.prisma.asset.findMany({
      where: { status: 'uploading', createdAt: { lt: before } },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
  }
}
