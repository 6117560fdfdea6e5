import { describe, expect, it } from 'vitest';
import { detectGrowth } from './growth.js';

/** Deterministic noise in [-1, 1] (a linear congruential generator), so the tests never flake. */
function noise(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return (s / 2 ** 31) * 2 - 1;
  };
}

const MB = 1024 * 1024;

describe('steady-growth detector', () => {
  it('flags a leaking series: +2 MB a minute over 30 minutes under ±8 MB noise', () => {
    const r = noise(1);
    const series = Array.from({ length: 30 }, (_, i) => 150 * MB + i * 2 * MB + r() * 8 * MB);
    const v = detectGrowth(series);
    expect(v.growing).toBe(true);
    expect(v.slopePerSample / MB).toBeGreaterThan(1.5);
    expect(v.slopePerSample / MB).toBeLessThan(2.5);
  });

  it('passes a flat noisy series', () => {
    for (const seed of [2, 3, 4, 5, 6]) {
      const r = noise(seed);
      const series = Array.from({ length: 30 }, () => 150 * MB + r() * 15 * MB);
      expect(detectGrowth(series).growing, `seed ${seed}`).toBe(false);
    }
  });

  it('passes a warm-up jump followed by a plateau, and a GC sawtooth', () => {
    const warm = Array.from({ length: 30 }, (_, i) => (i < 4 ? 80 + i * 20 : 160) * MB);
    expect(detectGrowth(warm).growing).toBe(false);
    const sawtooth = Array.from({ length: 30 }, (_, i) => (150 + (i % 5) * 10) * MB);
    expect(detectGrowth(sawtooth).growing).toBe(false);
  });

  it('does not call a statistically clear but tiny drift a leak', () => {
    const tiny = Array.from({ length: 30 }, (_, i) => 150 * MB + i * 0.1 * MB);
    const v = detectGrowth(tiny);
    expect(v.t).toBeGreaterThan(4);
    expect(v.growing).toBe(false);
  });

  it('refuses to judge too few samples', () => {
    const v = detectGrowth([1, 2, 3, 4, 5].map((x) => x * 100 * MB));
    expect(v).toMatchObject({ growing: false, insufficient: true });
  });
});
