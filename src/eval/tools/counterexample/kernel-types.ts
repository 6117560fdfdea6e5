/** The contract both search kernels (TypeScript reference, native C++) implement. */
import type { FeatureCache } from '../../graph/features.js';
import type { Claim } from './claim.js';
import type { LoweredProgram } from './program.js';
import type { PrngState } from './prng.js';

export const START_TEMPERATURE = 2.0;
export const COOLING = 0.999;

export interface AnnealParams {
  n: number;
  steps: number;
  state: PrngState;
}

export interface AnnealOutcome {
  found: boolean;
  /** Lowest score reached (0 when found). */
  bestScore: number;
  /** Steps taken: `steps`, or the step that found a counterexample. */
  stepsRun: number;
  /** Adjacency masks of the counterexample, or of the best graph seen. */
  adj: number[];
}

export interface ExhaustiveOutcome {
  found: boolean;
  /** Labelled graphs enumerated on this many vertices. */
  visited: number;
  /** Of those, graphs on which the claim was evaluated (the rest are isomorphic to one that was). */
  evaluated: number;
  adj: number[] | null;
}

export interface Kernel {
  readonly name: 'ts' | 'native';
  anneal(claim: PreparedClaim, params: AnnealParams): AnnealOutcome;
  /**
   * Every labelled graph on exactly n vertices in Gray-code order, stopping at the first
   * counterexample. With `sortedDegreesOnly`, the claim is evaluated only on graphs whose
   * degrees do not increase with the vertex index: every graph is isomorphic to one of those.
   */
  exhaustive(claim: PreparedClaim, n: number, sortedDegreesOnly: boolean): ExhaustiveOutcome;
}

/** A claim ready for either kernel: the AST for TypeScript, a flat program for C++. */
export interface PreparedClaim {
  claim: Claim;
  /** Exact check (compiled once): is the cache's graph a counterexample? */
  isCounterexample(cache: FeatureCache): boolean;
  /** The flat program for the native kernel (built on first use). */
  lowered(): LoweredProgram;
}
