/**
 * What every tool's near-limit workload (its definition's `workload`) is built from: a seeded
 * generator, so the same request comes out on every machine, a vocabulary, and the fill rule.
 */

/** A workload fills each bounded list, map or text to this share of its schema limit. */
export const WORKLOAD_FILL = 0.95;

/** `limit` scaled to the workload's fill, a whole count. */
export function nearLimit(limit: number): number {
  return Math.floor(limit * WORKLOAD_FILL);
}

/** Deterministic draws (mulberry32): a workload is the same request on every run. */
export class WorkloadRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A draw in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A whole number in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!;
  }

  /** A word of a 3000-word vocabulary (`w0` .. `w2999`): texts share words, as real ones do. */
  word(): string {
    return `w${this.below(3000)}`;
  }

  /** `count` vocabulary words joined by spaces. */
  sentence(count: number): string {
    return Array.from({ length: count }, () => this.word()).join(' ');
  }
}
