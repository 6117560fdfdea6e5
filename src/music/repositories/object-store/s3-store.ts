/**
 * S3 object store (SeaweedFS in production, s3rver in tests): one bucket per store, path-style
 * addressing. Streams go up through @aws-sdk/lib-storage (multipart when large, never
 * buffered whole); clients upload parts straight to presigned URLs.
 */
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../../config.js';
import {
  assertParts,
  assertValidKey,
  assertWritableKey,
  assertValidPrefix,
  contentTypeFor,
  type ByteRange,
  type CompletedPart,
  type ObjectBody,
  type ObjectData,
  type ObjectInfo,
  type ObjectSource,
  type ObjectStore,
  type StoreName,
  type UploadedPart,
} from './object-store.js';
import { multipartUploadNotFound, objectNotFound, partsRefused } from '../../errors/storage.js';

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Without these, the SDK adds flexible checksums with aws-chunked encoding to streamed
    // uploads, which S3-compatible servers (s3rver, older MinIO) store verbatim in the object.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function status(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

function isNotFound(err: unknown): boolean {
  const name = (err as { name?: string }).name;
  return status(err) === 404 || name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchBucket';
}

function unquote(etag: string | undefined): string | undefined {
  return etag?.replace(/"/g, '');
}

/** "bytes 0-99/1234" -> 1234 */
function totalFromContentRange(header: string | undefined): number | undefined {
  const m = header ? /\/(\d+)$/.exec(header) : null;
  return m ? Number(m[1]) : undefined;
}

export class S3ObjectStore implements ObjectStore {
  readonly directPartUploads = true;
  readonly bucket: string;

  constructor(
    private readonly client: S3Client,
    readonly name: StoreName,
    bucketPrefix: string,
  ) {
    this.bucket = `${bucketPrefix}${name}`;
  }

  async readSource(key: string): Promise<ObjectSource | undefined> {
    const object = await this.get(key);
    return object && { body: object.body };
  }

  async ensure(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(
    key: string,
    data: ObjectData,
    options: { contentType?: string } = {},
  ): Promise<{ etag: string | undefined }> {
    assertWritableKey(this.name, key);
    const ContentType = options.contentType ?? contentTypeFor(key);
    if (!(data instanceof Readable)) {
      const Body = typeof data === 'string' ? Buffer.from(data) : data;
      const out = await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body, ContentType }),
      );
      return { etag: unquote(out.ETag) };
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: data, ContentType },
    });
    const out = await upload.done();
    return { etag: unquote(out.ETag) };
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: out.ContentLength ?? 0,
        contentType: out.ContentType,
        etag: unquote(out.ETag),
        lastModified: out.LastModified,
      };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody | undefined> {
    assertValidKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = out.Body instanceof Readable ? out.Body : Readable.from([]);
      const total = totalFromContentRange(out.ContentRange) ?? out.ContentLength ?? 0;
      const served = range
        ? { start: range.start, end: range.start + (out.ContentLength ?? 0) - 1 }
        : undefined;
      return {
        size: total,
        contentType: out.ContentType,
        etag: unquote(out.ETag),
        lastModified: out.LastModified,
        body,
        range: served,
      };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      // An empty object cannot satisfy any range: give it whole (the caller answers by size).
      if (range && status(err) === 416) return this.get(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix || undefined,
          ContinuationToken: token,
        }),
      );
      for (const item of out.Contents ?? []) if (item.Key) keys.push(item.Key);
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async move(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertWritableKey(this.name, to);
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${encodeURIComponent(from).replace(/%2F/g, '/')}`,
        }),
      );
    } catch (err) {
      if (isNotFound(err)) throw objectNotFound(from, this.name);
      throw err;
    }
    await this.delete(from);
  }

  async createMultipartUpload(key: string, contentType: string): Promise<string> {
    assertWritableKey(this.name, key);
    const out = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    if (!out.UploadId) throw new Error('the object store returned no upload id');
    return out.UploadId;
  }

  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    data: ObjectData,
    size?: number,
  ): Promise<string> {
    assertValidKey(key);
    assertParts([{ partNumber, etag: '' }]);
    // UploadPart needs a known length: a stream of unknown size is buffered (parts are bounded).
    const Body =
      data instanceof Readable && size === undefined
        ? Buffer.concat(await data.toArray())
        : typeof data === 'string'
          ? Buffer.from(data)
          : data;
    try {
      const out = await this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          Body,
          ...(size !== undefined ? { ContentLength: size } : {}),
        }),
      );
      return unquote(out.ETag) ?? '';
    } catch (err) {
      if (isNotFound(err)) throw multipartUploadNotFound();
      throw err;
    }
  }

  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    assertValidKey(key);
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const out = await this.client.send(
          new ListPartsCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        );
        for (const p of out.Parts ?? []) {
          if (p.PartNumber !== undefined)
            parts.push({ partNumber: p.PartNumber, etag: unquote(p.ETag) ?? '', size: p.Size ?? 0 });
        }
        marker = out.IsTruncated ? out.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (err) {
      if (isNotFound(err)) throw multipartUploadNotFound();
      throw err;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async presignUploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresInSeconds: number,
  ): Promise<string> {
    assertValidKey(key);
    return getSignedUrl(
      this.client,
      new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
      { expiresIn: expiresInSeconds },
    );
  }

  async completeMultipartUpload(key: string, uploadId: string, parts: CompletedPart[]): Promise<ObjectInfo> {
    assertValidKey(key);
    assertParts(parts);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: `"${p.etag.replace(/"/g, '')}"` })),
          },
        }),
      );
    } catch (err) {
      if (isNotFound(err)) throw multipartUploadNotFound();
      if (status(err) === 400) throw partsRefused((err as Error).message);
      throw err;
    }
    const info = await this.head(key);
    if (!info) throw new Error(`object ${key} missing right after completing its upload`);
    return info;
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (err) {
      if (isNotFound(err)) throw multipartUploadNotFound();
      throw err;
    }
  }
}
