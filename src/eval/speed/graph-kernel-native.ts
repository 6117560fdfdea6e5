/**
 * Loads the optional C++ kernel (native/, built by scripts/build-native.mjs). GRAPH_KERNEL
 * picks the kernel: `auto` (default) uses the addon when it is built and the TypeScript
 * kernel otherwise, `native` requires the addon, `ts` never loads it.
 */
import { ConfigError } from '../../core/env.js';
import { loadAddon } from '../repositories/native-addon.js';

export interface NativeAnnealResult {
  found: boolean;
  bestScore: number;
  stepsRun: number;
  adj: number[];
}

export interface NativeExhaustiveResult {
  found: boolean;
  visited: number;
  evaluated: number;
  adj: number[] | null;
}

/** The addon's exports (native/src/addon.cc). */
export interface NativeGraphKernel {
  version: number;
  /** Every feature of one graph, FeatureCache order. */
  features(n: number, adj: Uint16Array): Float64Array;
  /** Features of `count` graphs given as consecutive n-word adjacency blocks. */
  featuresBatch(n: number, adj: Uint16Array, count: number): Float64Array;
  anneal(
    program: Int32Array,
    constants: Float64Array,
    n: number,
    steps: number,
    state: Uint32Array,
  ): NativeAnnealResult;
  exhaustive(
    program: Int32Array,
    constants: Float64Array,
    n: number,
    sortedDegreesOnly: boolean,
  ): NativeExhaustiveResult;
}

export type KernelChoice = 'auto' | 'native' | 'ts';

/** The addon, or null with the reason (not built, failed to load, wrong version). */
export function loadNativeKernel(): { kernel: NativeGraphKernel | null; reason: string } {
  const { addon, reason } = loadAddon<NativeGraphKernel>('graph_kernel');
  return { kernel: addon, reason };
}

/**
 * The kernel the service will use, resolved once at start-up from GRAPH_KERNEL: `native`
 * without a loadable addon stops start-up; `auto` takes the addon when it loads.
 */
export function resolveGraphKernel(choice: KernelChoice): 'native' | 'ts' {
  if (choice === 'ts') return 'ts';
  const { kernel, reason } = loadNativeKernel();
  if (kernel) return 'native';
  if (choice === 'native') throw new ConfigError([`GRAPH_KERNEL (got "native"): ${reason}`]);
  return 'ts';
}
