/**
 * Steady-growth detector for soak runs: is a series (RSS per minute) rising steadily, or only
 * noisy? After dropping the warm-up (caches filling, JIT), an ordinary least-squares line is
 * fitted; growth is reported when the slope is clearly non-zero (t-statistic above `minT`) AND
 * large (the fitted rise over the window is more than `minRelativeGrowth` of the mean). A GC
 * sawtooth or noise has a small t or a small rise; a leak has both.
 */
export interface GrowthOptions {
  /** Fraction of the first samples ignored as warm-up. */
  warmupFraction: number;
  minSamples: number;
  minT: number;
  minRelativeGrowth: number;
}

export const DEFAULT_GROWTH_OPTIONS: GrowthOptions = {
  warmupFraction: 0.2,
  minSamples: 6,
  minT: 4,
  minRelativeGrowth: 0.1,
};

export interface GrowthVerdict {
  growing: boolean;
  /** Not enough samples after the warm-up to judge (never "growing"). */
  insufficient: boolean;
  slopePerSample: number;
  t: number;
  relativeGrowth: number;
}

export function detectGrowth(
  series: readonly number[],
  options: GrowthOptions = DEFAULT_GROWTH_OPTIONS,
): GrowthVerdict {
  const ys = series.slice(Math.floor(series.length * options.warmupFraction));
  const n = ys.length;
  if (n < options.minSamples)
    return { growing: false, insufficient: true, slopePerSample: 0, t: 0, relativeGrowth: 0 };
  const meanX = (n - 1) / 2;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (i - meanX) ** 2;
    sxy += (i - meanX) * (ys[i]! - meanY);
  }
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i]! - (meanY + slope * (i - meanX))) ** 2;
  const se = Math.sqrt(sse / (n - 2) / sxx);
  // A perfectly straight line has no residual: any non-zero slope is then certain.
  const t = se === 0 ? (slope === 0 ? 0 : Number.POSITIVE_INFINITY * Math.sign(slope)) : slope / se;
  const relativeGrowth = meanY === 0 ? 0 : (slope * (n - 1)) / Math.abs(meanY);
  return {
    growing: t > options.minT && relativeGrowth > options.minRelativeGrowth,
    insufficient: false,
    slopePerSample: slope,
    t,
    relativeGrowth,
  };
}
