import { describe, expect, it } from 'vitest';
import {
  PeakAccumulator,
  rescaleWaveform,
  waveformDat,
  waveformDecodeArgs,
  waveformJson,
} from './waveform.js';

function pcm(samples: number[]): Buffer {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => b.writeInt16LE(s, i * 2));
  return b;
}

describe('PeakAccumulator', () => {
  it('keeps min and max per pixel, in 8 bits as audiowaveform does', () => {
    const acc = new PeakAccumulator(8000, 4);
    acc.push(pcm([0, 256, -512, 100, 32767, -32768, 0, 0, 300]));
    expect(Array.from(acc.finish().data)).toEqual([-2, 1, -128, 127, 1, 1]);
  });

  it('gives the same peaks whatever the chunking, odd byte splits included', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => Math.round(Math.sin(i / 7) * 20000));
    const whole = new PeakAccumulator(8000, 16);
    whole.push(pcm(samples));
    const bytes = pcm(samples);
    const pieces = new PeakAccumulator(8000, 16);
    for (let i = 0; i < bytes.length; i += 7) pieces.push(bytes.subarray(i, i + 7));
    expect(Array.from(pieces.finish().data)).toEqual(Array.from(whole.finish().data));
  });

  it('gives silence all zeros (no division anywhere) and an empty input no pixels', () => {
    const acc = new PeakAccumulator(44100, 512);
    acc.push(Buffer.alloc(44100 * 2));
    const w = acc.finish();
    expect(w.data.length / 2).toBe(Math.ceil(44100 / 512));
    expect(w.data.every((v) => v === 0)).toBe(true);
    expect(new PeakAccumulator(44100, 512).finish().data.length).toBe(0);
  });

  it('grows its store without holding PCM (3 hours of 44.1 kHz in 1 s chunks)', () => {
    const acc = new PeakAccumulator(44100, 512);
    const second = pcm(Array.from({ length: 44100 }, (_, i) => (i % 100) * 100));
    for (let s = 0; s < 3 * 3600; s++) acc.push(second);
    const w = acc.finish();
    expect(w.data.length / 2).toBe(Math.ceil((3 * 3600 * 44100) / 512));
    expect(Math.max(...w.data.slice(0, 1000))).toBe(Math.trunc(9900 / 256));
  });
});

describe('waveform formats', () => {
  const acc = new PeakAccumulator(44100, 512);
  acc.push(pcm([-25600, 12800, ...new Array<number>(1000).fill(0)]));
  const w = acc.finish();

  it('writes JSON version 2', () => {
    expect(JSON.parse(waveformJson(w))).toEqual({
      version: 2,
      channels: 1,
      sample_rate: 44100,
      samples_per_pixel: 512,
      bits: 8,
      length: 2,
      data: [-100, 50, 0, 0],
    });
  });

  it('writes the binary version 2 header and data', () => {
    const dat = waveformDat(w);
    expect(dat.length).toBe(24 + 4);
    expect([0, 4, 8, 12, 16, 20].map((o) => dat.readInt32LE(o))).toEqual([2, 1, 44100, 512, 2, 1]);
    expect(Array.from(dat.subarray(24)).map((b) => (b << 24) >> 24)).toEqual([-100, 50, 0, 0]);
  });

  it('rescales to a coarser zoom level', () => {
    const coarse = rescaleWaveform(
      { sampleRate: 8000, samplesPerPixel: 2, data: Int8Array.from([-1, 2, -5, 1, 0, 0]) },
      4,
    );
    expect(coarse.samplesPerPixel).toBe(4);
    expect(Array.from(coarse.data)).toEqual([-5, 2, 0, 0]);
    expect(() => rescaleWaveform(coarse, 6)).toThrow();
  });

  it('decodes mono s16le to stdout', () => {
    expect(waveformDecodeArgs('/x').slice(-9)).toEqual([
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-f',
      's16le',
      '-acodec',
      'pcm_s16le',
      'pipe:1',
    ]);
  });
});
