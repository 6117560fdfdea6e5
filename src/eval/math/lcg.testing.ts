/**
 * A tiny seeded generator (32-bit LCG, Numerical Recipes constants) for test data and
 * benchmark workloads: the same seed gives the same data on every machine. Not for product
 * code: the counterexample search has its own PRNG (tools/counterexample/prng.ts).
 */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
