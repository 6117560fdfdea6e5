/**
 * The graph kernel of this thread: the one the service resolved from GRAPH_KERNEL at start-up
 * (config, then resolveGraphKernel), set once per pool thread from its workerData so
 * /api/health reports what the workers really run. A thread where nothing set it (tests, the
 * CLI, the event loop) takes the addon when it loads, else the TypeScript kernel.
 */
import { tsKernel } from '../tools/counterexample/anneal.js';
import { nativeKernel } from '../tools/counterexample/kernel.js';
import type { Kernel } from '../tools/counterexample/kernel-types.js';
import { loadNativeKernel } from './graph-kernel-native.js';

let selected: Kernel | null = null;

export function useKernel(name: 'native' | 'ts'): void {
  if (name === 'ts') {
    selected = tsKernel;
    return;
  }
  const { kernel, reason } = loadNativeKernel();
  if (!kernel)
    throw new Error(`the native graph kernel was resolved at start-up but cannot load here: ${reason}`);
  selected = nativeKernel(kernel);
}

/** The kernel set by useKernel, or the addon when built, else the TypeScript kernel. */
export function threadKernel(): Kernel {
  if (selected) return selected;
  const { kernel } = loadNativeKernel();
  return (selected = kernel ? nativeKernel(kernel) : tsKernel);
}

/** The kernel by name, for tests and benchmarks; null when the native addon is not built. */
export function kernelByName(name: 'ts' | 'native'): Kernel | null {
  if (name === 'ts') return tsKernel;
  const { kernel } = loadNativeKernel();
  return kernel ? nativeKernel(kernel) : null;
}
