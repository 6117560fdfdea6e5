/**
 * Multipart uploads of originals. State of an asset: `uploading` (parts arriving) ->
 * `uploaded` (complete, checked and probed) | `aborted` (by its owner, by a failed check, or
 * by upload-cleanup after 24 h). Parts go to presigned store URLs when the store gives them
 * (S3), else through the API's part route, streamed. See docs/music-domain.md.
 */
import { randomUUID } from 'node:crypto';
import { AppError, type FieldError } from '../../core/errors.js';
import { BODY_LIMIT_BYTES } from '../config.js';
import { isUuid } from '../uuid.js';
import type { AuthContext } from '../auth-context.js';
import type { AssetRecord, AssetRepository } from '../repositories/asset-repository.js';
import type { ProbeSource, SpooledProbe } from '../repositories/ffprobe.js';
import type { ObjectStore } from '../repositories/object-store/object-store.js';
import type { Readable } from 'node:stream';
import { ACCEPTED_AUDIO, judgeProbe, type AudioProbe } from '../ffmpeg-commands/probe.js';
import { checkDeclaredType, declarationMismatch, originalTypeOfProbe } from './stored-media.js';
import {
  partLengthWrong,
  partOutOfRange,
  partsNotListed,
  tooManyParts,
  tooManyUnfinishedUploads,
  uploadDiscarded,
  uploadNotFound,
  uploadRaced,
  uploadTooLarge,
} from '../errors/uploads.js';

const MiB = 1024 * 1024;
export const UPLOAD_LIMITS = {
  maxBytes: BODY_LIMIT_BYTES,
  minPartSize: 5 * MiB,
  maxPartSize: 100 * MiB,
  // Each part is a request with fixed costs; larger parts amortise them (docs/music-domain.md, "Benchmark").
  defaultPartSize: 16 * MiB,
  /** Rows from before part_size was stored were cut at 5 MiB. */
  legacyPartSize: 5 * MiB,
  maxParts: 10_000,
  maxUnfinishedPerUser: 5,
  staleAfterMs: 24 * 3600_000,
  presignSeconds: 6 * 3600,
} as const;

export interface InitUploadInput {
  filename: string;
  content_type: string;
  size: number;
  sha256?: string;
  part_size?: number;
}

export interface PartUrl {
  part_number: number;
  url: string;
}

export interface InitUploadAnswer {
  upload_id: string;
  asset_id: string;
  part_size: number;
  part_count: number;
  /** `direct`: PUT to the store (presigned); `api`: PUT to this API (streamed). */
  transport: 'direct' | 'api';
  parts: PartUrl[];
}

export interface CompleteUploadInput {
  upload_id: string;
  asset_id: string;
  parts: { part_number: number; etag: string }[];
}

export interface AssetView {
  asset_id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string | null;
  status: string;
  probe: AudioProbe | null;
  created_at: string;
}

/** Reads a stored object once: sha256 and ffprobe (repositories/ffprobe.ts). */
export type ObjectProber = (source: ProbeSource) => Promise<SpooledProbe>;

function partCount(asset: { size: bigint; partSize: number | null }): number {
  return Math.ceil(Number(asset.size) / (asset.partSize ?? UPLOAD_LIMITS.legacyPartSize));
}

function expectedPartSize(asset: AssetRecord, n: number): number {
  const size = Number(asset.size);
  const partSize = asset.partSize ?? UPLOAD_LIMITS.legacyPartSize;
  return n < partCount(asset) ? partSize : size - partSize * (partCount(asset) - 1);
}

export function assetView(asset: AssetRecord): AssetView {
  return {
    asset_id: asset.id,
    filename: asset.filename,
    content_type: asset.contentType,
    size: Number(asset.size),
    sha256: asset.sha256,
    status: asset.status,
    probe: (asset.probe as unknown as AudioProbe | null) ?? null,
    created_at: asset.createdAt.toISOString(),
  };
}

export class UploadService {
  constructor(
    private readonly assets: AssetRepository,
    private readonly store: ObjectStore,
    private readonly prober: ObjectProber,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async init(auth: AuthContext, input: InitUploadInput): Promise<InitUploadAnswer> {
    // Only a claim of audio is taken; the stored type comes from the probe at completion.
    const declared = checkDeclaredType(input.content_type) ?? 'application/octet-stream';
    if (input.size > UPLOAD_LIMITS.maxBytes) {
      throw uploadTooLarge(UPLOAD_LIMITS.maxBytes);
    }
    const partSize = input.part_size ?? UPLOAD_LIMITS.defaultPartSize;
    const count = Math.ceil(input.size / partSize);
    if (count > UPLOAD_LIMITS.maxParts) {
      throw tooManyParts(UPLOAD_LIMITS.maxParts);
    }
    const id = randomUUID();
    const objectKey = `${auth.userId}/${id}`;
    // The store's upload is made first so the row is whole when counted; a refused one is aborted.
    const multipartUploadId = await this.store.createMultipartUpload(objectKey, declared);
    const asset = await this.assets.create(
      {
        id,
        ownerUserId: auth.userId,
        objectKey,
        filename: input.filename,
        contentType: declared,
        size: input.size,
        sha256: input.sha256?.toLowerCase(),
        multipartUploadId,
        uploadId: randomUUID(),
        partSize,
      },
      UPLOAD_LIMITS.maxUnfinishedPerUser,
    );
    if (!asset) {
      await this.store.abortMultipartUpload(objectKey, multipartUploadId).catch(() => undefined);
      throw tooManyUnfinishedUploads(UPLOAD_LIMITS.maxUnfinishedPerUser);
    }
    const parts = await this.partUrls(
      asset,
      Array.from({ length: count }, (_, i) => i + 1),
    );
    return {
      upload_id: asset.uploadId ?? '',
      asset_id: asset.id,
      part_size: partSize,
      part_count: count,
      transport: this.store.directPartUploads ? 'direct' : 'api',
      parts,
    };
  }

  private async partUrls(asset: AssetRecord, numbers: number[]): Promise<PartUrl[]> {
    return Promise.all(
      numbers.map(async (n) => ({
        part_number: n,
        url:
          (await this.store.presignUploadPart(
            asset.objectKey,
            asset.multipartUploadId ?? '',
            n,
            UPLOAD_LIMITS.presignSeconds,
          )) ?? `/api/v1/upload/multipart/${asset.uploadId ?? ''}/parts/${n}`,
      })),
    );
  }

  /** The caller's unfinished upload, or a 404 (someone else's upload is indistinguishable from none). */
  private async owned(
    auth: AuthContext,
    uploadId: string,
  ): Promise<AssetRecord & { multipartUploadId: string }> {
    if (!isUuid(uploadId)) throw uploadNotFound();
    const asset = await this.assets.findByUploadId(uploadId.toLowerCase());
    if (
      !asset ||
      asset.ownerUserId !== auth.userId ||
      asset.status !== 'uploading' ||
      !asset.multipartUploadId
    )
      throw uploadNotFound();
    return { ...asset, multipartUploadId: asset.multipartUploadId };
  }

  async putPart(
    auth: AuthContext,
    uploadId: string,
    partNumber: number,
    contentLength: number | undefined,
    body: Readable,
  ): Promise<{ part_number: number; etag: string; size: number }> {
    const asset = await this.owned(auth, uploadId);
    const count = partCount(asset);
    if (partNumber > count) {
      throw partOutOfRange(count, partNumber);
    }
    const expected = expectedPartSize(asset, partNumber);
    if (contentLength !== expected) {
      throw partLengthWrong(partNumber, expected, contentLength);
    }
    const etag = await this.store.uploadPart(
      asset.objectKey,
      asset.multipartUploadId,
      partNumber,
      body,
      expected,
    );
    return { part_number: partNumber, etag, size: expected };
  }

  async status(
    auth: AuthContext,
    uploadId: string,
  ): Promise<InitUploadAnswer & { received: { part_number: number; etag: string; size: number }[] }> {
    const asset = await this.owned(auth, uploadId);
    const received = await this.store.listParts(asset.objectKey, asset.multipartUploadId);
    const count = partCount(asset);
    const have = new Set(received.map((p) => p.partNumber));
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !have.has(n));
    return {
      upload_id: uploadId.toLowerCase(),
      asset_id: asset.id,
      part_size: asset.partSize ?? UPLOAD_LIMITS.legacyPartSize,
      part_count: count,
      transport: this.store.directPartUploads ? 'direct' : 'api',
      received: received.map((p) => ({ part_number: p.partNumber, etag: p.etag, size: p.size })),
      parts: await this.partUrls(asset, missing),
    };
  }

  /** uploading -> aborted, then the parts are deleted; a complete that won first makes this a 409. */
  async abort(auth: AuthContext, uploadId: string): Promise<void> {
    const asset = await this.owned(auth, uploadId);
    if (!(await this.assets.markAborted(asset.id))) throw uploadRaced();
    await this.discard(asset);
  }

  /**
   * Deletes whatever an aborted upload left (parts, a joined object); safe to repeat. `joined`:
   * this request completed the multipart upload itself, so no parts are left to abort.
   */
  private async discard(asset: AssetRecord, joined = false): Promise<void> {
    if (asset.multipartUploadId !== null && !joined) {
      try {
        await this.store.abortMultipartUpload(asset.objectKey, asset.multipartUploadId);
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'not_found')) throw err;
      }
    }
    await this.store.delete(asset.objectKey);
    await this.assets.markCleaned(asset.id);
  }

  /** True when the asset left `uploading` meanwhile: the caller lost a race. */
  private async lostRace(id: string): Promise<boolean> {
    return (await this.assets.findById(id))?.status !== 'uploading';
  }

  /**
   * uploading -> uploaded when every check passes (the stored type is the probe's), else
   * uploading -> aborted with the parts deleted. Whichever of a complete and an abort changes the
   * status first wins; the other answers 409 and cleans what it wrote.
   */
  async complete(auth: AuthContext, input: CompleteUploadInput): Promise<AssetView> {
    const asset = await this.owned(auth, input.upload_id);
    if (asset.id !== input.asset_id.toLowerCase()) throw uploadNotFound();
    const count = partCount(asset);
    const numbers = input.parts.map((p) => p.part_number);
    if (numbers.length !== count || numbers.some((n, i) => n !== i + 1)) {
      throw partsNotListed(count);
    }
    const lost = async (joined = false): Promise<never> => {
      await this.discard(asset, joined);
      throw uploadRaced();
    };
    let info;
    try {
      info = await this.store.completeMultipartUpload(
        asset.objectKey,
        asset.multipartUploadId,
        input.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
      );
    } catch (err) {
      if (await this.lostRace(asset.id)) return lost();
      throw err;
    }
    const reject = async (detail: string, errors: FieldError[]): Promise<never> => {
      if (!(await this.assets.markAborted(asset.id))) return lost(true);
      await this.discard(asset, true);
      throw uploadDiscarded(detail, errors);
    };
    if (info.size !== Number(asset.size)) {
      return reject(`The parts hold ${info.size} bytes, not the ${asset.size} declared.`, [
        { path: '/parts', message: `add up to ${info.size} bytes, not ${asset.size}` },
      ]);
    }
    // A file on this machine is probed where it lies (no second copy), with the sha256 the store
    // took while joining the parts (no second read).
    let spooled;
    try {
      spooled = await this.prober(await this.probeSource(asset.objectKey, info.sha256));
    } catch (err) {
      // An abort that won meanwhile deleted the object under the probe.
      if (await this.lostRace(asset.id)) return lost(true);
      throw err;
    }
    if (asset.sha256 && spooled.sha256 !== asset.sha256) {
      return reject(`The file's sha256 is ${spooled.sha256}, not the ${asset.sha256} declared.`, [
        { path: '/sha256', message: 'does not match the uploaded bytes' },
      ]);
    }
    if (spooled.raw === undefined) {
      return reject(
        `The file could not be read as audio (${spooled.error ?? 'unreadable'}): it is damaged or not an audio file; accepted: ${ACCEPTED_AUDIO}.`,
        [{ path: '/upload_id', message: 'is not an audio file that can be read' }],
      );
    }
    const verdict = judgeProbe(spooled.raw);
    if (!verdict.ok) {
      return reject(`The file is ${verdict.found}; accepted: ${ACCEPTED_AUDIO}.`, [
        { path: '/upload_id', message: `is ${verdict.found}` },
      ]);
    }
    const found = originalTypeOfProbe(verdict.probe.format);
    const mismatch = declarationMismatch(asset.contentType, found);
    if (mismatch) return reject(`The file is ${found}, not the ${asset.contentType} declared.`, [mismatch]);
    const done = await this.assets.markUploaded(asset.id, verdict.probe, spooled.sha256, found);
    if (!done) return lost(true);
    return assetView(done);
  }

  private async probeSource(key: string, sha256: string | undefined): Promise<ProbeSource> {
    const source = await this.store.readSource(key);
    if (!source) throw new Error(`object ${key} missing right after completing its upload`);
    return 'file' in source && sha256 !== undefined ? { file: source.file, sha256 } : source;
  }

  /**
   * upload-cleanup: aborts uploads started more than 24 h ago and still unfinished, and deletes
   * what aborted uploads left stored (an abort whose deletion failed, a complete that lost a race).
   */
  async cleanup(nowMs = this.nowMs()): Promise<{ aborted: number; failed: number }> {
    const before = new Date(nowMs - UPLOAD_LIMITS.staleAfterMs);
    let aborted = 0;
    let failed = 0;
    for (;;) {
      const stale = await this.assets.listStale(before, 100);
      for (const asset of stale) {
        try {
          if (await this.assets.markAborted(asset.id)) await this.discard(asset);
          aborted++;
        } catch {
          // Left as it is: the next run tries again.
          failed++;
        }
      }
      if (stale.length < 100 || failed > 0) break;
    }
    for (;;) {
      const left = await this.assets.listUncleaned(100);
      for (const asset of left) {
        try {
          await this.discard(asset);
        } catch {
          failed++;
        }
      }
      if (left.length < 100 || failed > 0) return { aborted, failed };
    }
  }
}
