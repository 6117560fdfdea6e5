/**
 * The worker's cache of originals, against a real filesystem store and real ffprobe: the media
 * jobs of a version share one download and one probe; a replaced original is fetched afresh; an
 * undecodable one fails for good and is not kept; unused copies go above the byte budget.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FfmpegRunner } from '../../src/music/repositories/ffmpeg-runner.js';
import { FilesystemObjectStore } from '../../src/music/repositories/object-store/fs-store.js';
import { generateAudio } from '../../test/helpers/music-worker.js';
import { OriginalCache } from './original-cache.js';

describe('OriginalCache', () => {
  let dir: string;
  let store: FilesystemObjectStore;
  let oneSecond: Buffer;
  let twoSeconds: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'original-cache-'));
    store = new FilesystemObjectStore(join(dir, 'store'), 'originals');
    await store.ensure();
    await generateAudio(join(dir, 'one.flac'), { seconds: 1, cover: true });
    await generateAudio(join(dir, 'two.flac'), { seconds: 2, channels: 1 });
    oneSecond = await readFile(join(dir, 'one.flac'));
    twoSeconds = await readFile(join(dir, 'two.flac'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const cacheIn = (name: string, maxBytes = 1 << 30): OriginalCache =>
    new OriginalCache({ dir: join(dir, name), store, runner: new FfmpegRunner(), maxBytes });

  it('serves the four jobs of a version from one download and one probe', async () => {
    const cache = cacheIn('shared');
    await store.put('v/shared.flac', oneSecond);
    const leases = await Promise.all([1, 2, 3, 4].map(() => cache.acquire('v/shared.flac')));
    expect(new Set(leases.map((l) => l.path)).size).toBe(1);
    expect(await readFile(leases[0]!.path)).toEqual(oneSecond);
    expect(leases[0]!.probe).toMatchObject({ channels: 2, sampleRate: 44100, durationMs: 1000 });
    expect(leases[0]!.probe.coverStreamIndex).toBeDefined();
    expect(cache.stats()).toMatchObject({ fetches: 1, hits: 3, entries: 1, bytes: oneSecond.length });
    for (const l of leases) l.release();
    // A retry after the jobs ended still finds the copy (within the budget).
    const again = await cache.acquire('v/shared.flac');
    expect(cache.stats().fetches).toBe(1);
    again.release();
  });

  it('fetches afresh when the original was replaced under the same key', async () => {
    const cache = cacheIn('replaced');
    await store.put('v/replaced.flac', oneSecond);
    const first = await cache.acquire('v/replaced.flac');
    first.release();
    await store.put('v/replaced.flac', twoSeconds);
    const second = await cache.acquire('v/replaced.flac');
    expect(second.probe).toMatchObject({ channels: 1, durationMs: 2000 });
    expect(await readFile(second.path)).toEqual(twoSeconds);
    expect(cache.stats().fetches).toBe(2);
    second.release();
  });

  it('fails an undecodable original for good and keeps nothing of it', async () => {
    const cache = cacheIn('corrupt');
    await store.put('v/corrupt.mp3', randomBytes(4096));
    const attempts = await Promise.allSettled([
      cache.acquire('v/corrupt.mp3'),
      cache.acquire('v/corrupt.mp3'),
    ]);
    for (const a of attempts) {
      expect(a.status).toBe('rejected');
      const reason = (a as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(UnrecoverableError);
      expect(reason.message).toBe('the file is not audio that ffmpeg can decode');
    }
    expect(cache.stats()).toMatchObject({ fetches: 1, entries: 0 });
    expect(await readdir(join(dir, 'corrupt'))).toEqual([]);
    await expect(cache.acquire('v/absent.flac')).rejects.toThrow(/missing from the store/);
  });

  it('drops unused copies oldest first above the budget, never one in use', async () => {
    const cache = cacheIn('budget', oneSecond.length + twoSeconds.length - 1);
    await store.put('v/a.flac', oneSecond);
    await store.put('v/b.flac', twoSeconds);
    const a = await cache.acquire('v/a.flac');
    const b = await cache.acquire('v/b.flac');
    // Both in use: over the budget, but nothing may go.
    expect(cache.stats().entries).toBe(2);
    a.release();
    expect(cache.stats().entries).toBe(1);
    b.release();
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: twoSeconds.length });
    await cache.clear();
    expect(cache.stats().entries).toBe(0);
  });

  it('lets a cancelled job go while the shared fetch goes on for the others', async () => {
    const cache = cacheIn('cancel');
    await store.put('v/cancel.flac', oneSecond);
    const controller = new AbortController();
    const cancelled = cache.acquire('v/cancel.flac', controller.signal);
    const other = cache.acquire('v/cancel.flac');
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ reason: 'aborted' });
    const lease = await other;
    expect(await readFile(lease.path)).toEqual(oneSecond);
    lease.release();
  });
});
