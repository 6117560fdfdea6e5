import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { estimatedAdtsBytes, exactLength } from './exact-length.js';

const through = (chunks: Buffer[], length: number) => buffer(Readable.from(chunks).pipe(exactLength(length)));

describe('exactLength (estimateContentLength)', () => {
  it('cuts a longer stream at the declared length', async () => {
    const out = await through([Buffer.from('abcdef'), Buffer.from('ghij')], 8);
    expect(out.toString()).toBe('abcdefgh');
  });

  it('pads a shorter stream with zero bytes up to the declared length', async () => {
    const out = await through([Buffer.from('abc')], 6);
    expect([...out]).toEqual([97, 98, 99, 0, 0, 0]);
  });

  it('passes a stream of exactly the declared length unchanged', async () => {
    expect((await through([Buffer.from('abcd')], 4)).toString()).toBe('abcd');
  });

  it('estimates ADTS bytes from duration and bitrate, headers included', () => {
    expect(estimatedAdtsBytes(10, 128)).toBe(10 * 16_000 + 10 * 329);
    expect(estimatedAdtsBytes(-1, 128)).toBe(0);
  });
});
