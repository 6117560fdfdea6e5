/**
 * One contract, two drivers: the same suite runs against the filesystem store and against the
 * S3 store talking to the real s3rver started by the global set-up.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemObjectStore } from '../src/music/repositories/object-store/fs-store.js';
import type { ObjectStore } from '../src/music/repositories/object-store/object-store.js';
import { S3ObjectStore, createS3Client } from '../src/music/repositories/object-store/s3-store.js';
import { s3Settings, uniqueSuffix } from './helpers/music-env.js';

interface Driver {
  name: string;
  /**
   * s3rver implements neither AbortMultipartUpload (it answers 405) nor the ETag check on
   * completion, both of which AWS S3 and MinIO do; those two cases run on the drivers whose
   * server has them.
   */
  fullMultipart: boolean;
  make(): Promise<{ store: ObjectStore; cleanup: () => Promise<void> }>;
}

const drivers: Driver[] = [
  {
    name: 'filesystem',
    fullMultipart: true,
    make: async () => {
      const root = await mkdtemp(join(tmpdir(), 'fs-store-'));
      return {
        store: new FilesystemObjectStore(root, 'originals'),
        cleanup: () => rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 's3 (s3rver)',
    fullMultipart: false,
    make: () => {
      const settings = s3Settings(`c${uniqueSuffix()}-`);
      const client = createS3Client(settings);
      return Promise.resolve({
        store: new S3ObjectStore(client, 'originals', settings.bucketPrefix),
        cleanup: () => {
          client.destroy();
          return Promise.resolve();
        },
      });
    },
  },
];

const text = async (body: Readable): Promise<string> => Buffer.concat(await body.toArray()).toString('utf8');
const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');

describe.each(drivers)('object store contract: $name', (driver) => {
  let store: ObjectStore;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ store, cleanup } = await driver.make());
    await store.ensure();
    await store.ensure(); // idempotent
  });
  afterAll(async () => cleanup());

  it('answers ping once ensured', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('round-trips a buffer, a string and a stream', async () => {
    await store.put('a/b/one.bin', Buffer.from('hello'));
    await store.put('a/two.txt', 'world');
    await store.put('a/three.json', Readable.from([Buffer.from('{"x":'), Buffer.from('1}')]));
    const one = await store.get('a/b/one.bin');
    expect(one?.size).toBe(5);
    expect(await text(one!.body)).toBe('hello');
    expect(await text((await store.get('a/two.txt'))!.body)).toBe('world');
    const three = await store.get('a/three.json');
    expect(await text(three!.body)).toBe('{"x":1}');
    expect(three?.contentType).toBe('application/json');
  });

  it('overwrites an existing key', async () => {
    await store.put('over.txt', 'first');
    await store.put('over.txt', 'second!');
    const got = await store.get('over.txt');
    expect(got?.size).toBe(7);
    expect(await text(got!.body)).toBe('second!');
  });

  it('gives undefined for a missing object (get and head)', async () => {
    expect(await store.get('nope/missing.bin')).toBeUndefined();
    expect(await store.head('nope/missing.bin')).toBeUndefined();
  });

  it('serves byte ranges and reports the total size', async () => {
    await store.put('range.bin', Buffer.from('0123456789'));
    const part = await store.get('range.bin', { start: 2, end: 5 });
    expect(part?.size).toBe(10);
    expect(part?.range).toEqual({ start: 2, end: 5 });
    expect(await text(part!.body)).toBe('2345');
    const tail = await store.get('range.bin', { start: 7, end: 100 });
    expect(tail?.range).toEqual({ start: 7, end: 9 });
    expect(await text(tail!.body)).toBe('789');
  });

  it('heads an object with its size', async () => {
    await store.put('head/me.m3u8', '#EXTM3U\n');
    const info = await store.head('head/me.m3u8');
    expect(info?.size).toBe(8);
    expect(info?.contentType).toBe('application/vnd.apple.mpegurl');
  });

  it('deletes, and deleting twice is fine', async () => {
    await store.put('del.txt', 'x');
    await store.delete('del.txt');
    await store.delete('del.txt');
    expect(await store.head('del.txt')).toBeUndefined();
  });

  it('lists keys under a prefix, sorted', async () => {
    await store.put('list/x/2.ts', '2');
    await store.put('list/x/1.ts', '1');
    await store.put('list/y/3.ts', '3');
    await store.put('listing-other.txt', 'o');
    expect(await store.list('list/x/')).toEqual(['list/x/1.ts', 'list/x/2.ts']);
    expect(await store.list('list/')).toEqual(['list/x/1.ts', 'list/x/2.ts', 'list/y/3.ts']);
  });

  it('moves an object into place, replacing the target', async () => {
    await store.put('tmp/out.txt', 'new');
    await store.put('final/out.txt', 'old');
    await store.move('tmp/out.txt', 'final/out.txt');
    expect(await text((await store.get('final/out.txt'))!.body)).toBe('new');
    expect(await store.head('tmp/out.txt')).toBeUndefined();
    await expect(store.move('tmp/absent.txt', 'final/x.txt')).rejects.toMatchObject({ status: 404 });
  });

  it('refuses keys that could escape the store', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '.hidden', 'a/./b', '', 'sp ace']) {
      await expect(store.put(key, 'x'), key).rejects.toMatchObject({ status: 400 });
      await expect(store.get(key), key).rejects.toMatchObject({ status: 400 });
    }
  });

  it('assembles a multipart upload from its parts, in order', async () => {
    const key = 'multi/upload.bin';
    const id = await store.createMultipartUpload(key, 'application/octet-stream');
    const first = randomBytes(5 * 1024 * 1024); // S3's minimum size for a non-final part
    const last = randomBytes(1234);
    const etag2 = await store.uploadPart(key, id, 2, last);
    const etag1 = await store.uploadPart(key, id, 1, Readable.from([first]));
    expect(etag1.replace(/"/g, '')).toBe(md5(first));
    const info = await store.completeMultipartUpload(key, id, [
      { partNumber: 1, etag: etag1 },
      { partNumber: 2, etag: etag2 },
    ]);
    expect(info.size).toBe(first.length + last.length);
    const got = await store.get(key);
    const all = Buffer.concat(await got!.body.toArray());
    expect(md5(all)).toBe(md5(Buffer.concat([first, last])));
  });

  it('refuses a completion with parts out of order or repeated', async () => {
    const key = 'multi/order.bin';
    const id = await store.createMultipartUpload(key, 'application/octet-stream');
    const etag = await store.uploadPart(key, id, 1, Buffer.from('only part'));
    for (const parts of [
      [
        { partNumber: 2, etag },
        { partNumber: 1, etag },
      ],
      [
        { partNumber: 1, etag },
        { partNumber: 1, etag },
      ],
      [],
    ]) {
      await expect(store.completeMultipartUpload(key, id, parts)).rejects.toMatchObject({ status: 400 });
    }
    expect(await store.head(key)).toBeUndefined();
  });

  it.skipIf(!driver.fullMultipart)('refuses a completion whose etag does not match the part', async () => {
    const key = 'multi/bad.bin';
    const id = await store.createMultipartUpload(key, 'application/octet-stream');
    await store.uploadPart(key, id, 1, Buffer.from('only part'));
    await expect(
      store.completeMultipartUpload(key, id, [{ partNumber: 1, etag: md5(Buffer.from('other')) }]),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(await store.head(key)).toBeUndefined();
  });

  it.skipIf(!driver.fullMultipart)(
    'aborts an upload: its parts are gone and it cannot be completed',
    async () => {
      const key = 'multi/aborted.bin';
      const id = await store.createMultipartUpload(key, 'audio/mpeg');
      const etag = await store.uploadPart(key, id, 1, Buffer.from('part'));
      await store.abortMultipartUpload(key, id);
      await expect(store.completeMultipartUpload(key, id, [{ partNumber: 1, etag }])).rejects.toMatchObject({
        status: 404,
      });
      expect(await store.head(key)).toBeUndefined();
    },
  );

  it('presigns part URLs only where clients upload directly (S3)', async () => {
    const key = 'multi/presigned.bin';
    const id = await store.createMultipartUpload(key, 'application/octet-stream');
    const url = await store.presignUploadPart(key, id, 1, 600);
    if (!store.directPartUploads) {
      expect(url).toBeUndefined();
      return;
    }
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const body = Buffer.from('uploaded straight to the store');
    const res = await fetch(url!, { method: 'PUT', body });
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag') ?? '';
    await store.completeMultipartUpload(key, id, [{ partNumber: 1, etag }]);
    expect(await text((await store.get(key))!.body)).toBe(body.toString());
  });
});

describe('filesystem store housekeeping', () => {
  it('leaves no temporary files behind and keeps bookkeeping out of listings', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fs-store-'));
    try {
      const store = new FilesystemObjectStore(root, 'images');
      await store.ensure();
      await store.put('x.png', Buffer.from([1, 2, 3]));
      const id = await store.createMultipartUpload('y.png', 'image/png');
      await store.uploadPart('y.png', id, 1, Buffer.from('p'));
      expect(await readdir(join(root, 'images', '.tmp'))).toEqual([]);
      expect(await store.list('')).toEqual(['x.png']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('joins parts sent as many small chunks, byte for byte, and gives the sha256 of the whole', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fs-store-'));
    try {
      const store = new FilesystemObjectStore(root, 'originals');
      await store.ensure();
      const id = await store.createMultipartUpload('a/b.wav', 'audio/wav');
      // Odd chunk sizes (as a socket gives them) cross the writer's 1 MiB blocks at odd places.
      const first = randomBytes(5 * 1024 * 1024 + 17);
      const chunks = Array.from({ length: Math.ceil(first.length / 65_531) }, (_, i) =>
        first.subarray(i * 65_531, (i + 1) * 65_531),
      );
      const last = randomBytes(3 * 1024 * 1024 + 5);
      const etag1 = await store.uploadPart('a/b.wav', id, 1, Readable.from(chunks), first.length);
      const etag2 = await store.uploadPart('a/b.wav', id, 2, Readable.from([last]), last.length);
      expect(etag1).toBe(md5(first));
      const info = await store.completeMultipartUpload('a/b.wav', id, [
        { partNumber: 1, etag: etag1 },
        { partNumber: 2, etag: etag2 },
      ]);
      const whole = Buffer.concat([first, last]);
      expect(info.sha256).toBe(createHash('sha256').update(whole).digest('hex'));
      expect(md5(Buffer.concat(await (await store.get('a/b.wav'))!.body.toArray()))).toBe(md5(whole));
      expect(await readdir(join(root, 'originals', '.tmp'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('refuses a part whose body is not the size announced, keeping no bytes of it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fs-store-'));
    try {
      const store = new FilesystemObjectStore(root, 'originals');
      await store.ensure();
      const id = await store.createMultipartUpload('a/c.wav', 'audio/wav');
      for (const body of [randomBytes(1000), randomBytes(1002)]) {
        await expect(store.uploadPart('a/c.wav', id, 1, Readable.from([body]), 1001)).rejects.toMatchObject({
          status: 400,
        });
      }
      expect(await store.listParts('a/c.wav', id)).toEqual([]);
      expect(await readdir(join(root, 'originals', '.tmp'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('fails ping when its root is missing', async () => {
    const store = new FilesystemObjectStore(join(tmpdir(), `absent-${uniqueSuffix()}`), 'images');
    await expect(store.ping()).rejects.toThrow();
  });
});

describe('images store on S3 (s3rver)', () => {
  it('refuses SVG and other non-raster keys before anything is sent, takes raster images', async () => {
    const settings = s3Settings(`i${uniqueSuffix()}-`);
    const client = createS3Client(settings);
    try {
      const store = new S3ObjectStore(client, 'images', settings.bucketPrefix);
      await store.ensure();
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      await expect(store.put('art/evil.svg', svg)).rejects.toMatchObject({ status: 415 });
      await expect(store.createMultipartUpload('art/evil.svg', 'image/svg+xml')).rejects.toMatchObject({
        status: 415,
      });
      expect(await store.head('art/evil.svg')).toBeUndefined();
      await store.put('art/ok.jpg', Buffer.from([0xff, 0xd8, 0xff]));
      await expect(store.move('art/ok.jpg', 'art/ok.svg')).rejects.toMatchObject({ status: 415 });
      expect(await store.head('art/ok.jpg')).toBeDefined();
    } finally {
      client.destroy();
    }
  });
});
