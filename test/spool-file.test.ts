/** core/repositories/spool-file.ts against real files: blocks, sizes, hashes, and cleanup after a failure. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatenateFiles, SizeMismatchError, spoolToFile } from '../src/core/repositories/spool-file.js';

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
const chunked = (b: Buffer, size: number): Buffer[] =>
  Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size));

describe('spoolToFile and concatenateFiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spool-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes small and large chunks in order, whatever their mix', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 333);
    // Small chunks, then one larger than a block, then small again: both write paths, in order.
    const cuts = [0, 10, 70_000, 1_048_576, 2_600_000, 2_600_001, bytes.length];
    const chunks = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
    const file = join(dir, 'mixed');
    const got = await spoolToFile(Readable.from(chunks), file, 'sha256', bytes.length);
    expect(got).toEqual({ digest: sha256(bytes), size: bytes.length });
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('keeps digests of bodies spooled at once apart (one digest thread serves them all)', async () => {
    const bodies = [randomBytes(5 * 1024 * 1024 + 7), randomBytes(3 * 1024 * 1024), randomBytes(10)];
    const got = await Promise.all(
      bodies.map((b, i) =>
        spoolToFile(Readable.from(chunked(b, 65_536)), join(dir, `together-${i}`), 'md5', b.length),
      ),
    );
    expect(got.map((g) => g.digest)).toEqual(bodies.map(md5));
  });

  it('hashes on the digest thread: the event loop spends less CPU on a whole spool than on its MD5 alone', async () => {
    const body = randomBytes(64 * 1024 * 1024);
    const chunks = chunked(body, 65_536);
    // CPU time of this thread, not the wall clock: a busy machine slows both sides alike.
    let before = process.threadCpuUsage();
    md5(body);
    const hashHere = cpuMs(process.threadCpuUsage(before));
    before = process.threadCpuUsage();
    const got = await spoolToFile(Readable.from(chunks), join(dir, 'off-loop'), 'md5', body.length);
    const spoolHere = cpuMs(process.threadCpuUsage(before));
    expect(got.digest).toBe(md5(body));
    expect(spoolHere).toBeLessThan(hashHere);
  });

  it('fails on a body shorter or longer than expected and removes the file', async () => {
    for (const length of [99, 101]) {
      const file = join(dir, `wrong-${length}`);
      const error = await spoolToFile(Readable.from([randomBytes(length)]), file, 'md5', 100).catch(
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(SizeMismatchError);
      await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
    }
  });

  it('removes the partial file when the source fails midway', async () => {
    const file = join(dir, 'broken');
    const source = new Readable({ read() {} });
    source.push(randomBytes(2 * 1024 * 1024));
    setImmediate(() => source.destroy(new Error('connection reset')));
    await expect(spoolToFile(source, file, undefined)).rejects.toThrow('connection reset');
    expect((await readdir(dir)).includes('broken')).toBe(false);
  });

  it('concatenates files (larger than its read block, and empty) and hashes the whole', async () => {
    const parts = [randomBytes(9 * 1024 * 1024 + 1), Buffer.alloc(0), randomBytes(12345)];
    const names = await Promise.all(
      parts.map(async (p, i) => {
        const name = join(dir, `part-${i}`);
        await writeFile(name, p);
        return name;
      }),
    );
    const out = join(dir, 'joined');
    const whole = Buffer.concat(parts);
    expect(await concatenateFiles(names, out, 'sha256')).toEqual({
      digest: sha256(whole),
      size: whole.length,
    });
    expect((await readFile(out)).equals(whole)).toBe(true);
    await expect(
      concatenateFiles([names[0] ?? '', join(dir, 'absent')], join(dir, 'j2'), undefined),
    ).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect((await readdir(dir)).includes('j2')).toBe(false);
  });
});
