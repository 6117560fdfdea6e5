/**
 * Kernel selection: the native addon when GRAPH_KERNEL allows it and it is built, else the
 * TypeScript reference. Both give identical outcomes for identical inputs (the differential
 * test checks it), so the choice never shows in a receipt.
 */
import { kernelChoice, loadNativeKernel, type NativeGraphKernel } from '../../graph/native.js';
import { tsKernel } from './anneal.js';
import type { Kernel } from './kernel-types.js';

export function nativeKernel(addon: NativeGraphKernel): Kernel {
  return {
    name: 'native',
    anneal(prepared, { n, steps, state }) {
      const { program, constants } = prepared.lowered();
      return addon.anneal(program, constants, n, steps, Uint32Array.from(state));
    },
    exhaustive(prepared, n, sortedDegreesOnly) {
      const { program, constants } = prepared.lowered();
      return addon.exhaustive(program, constants, n, sortedDegreesOnly);
    },
  };
}

let selected: Kernel | null = null;

/**
 * Fixes the kernel this thread uses: the eval service resolves GRAPH_KERNEL once at start-up
 * and hands the result to every pool worker (Piscina workerData), so /api/health reports what
 * the workers really run.
 */
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

/** The kernel set by useKernel; without one (tests, CLI), the one GRAPH_KERNEL selects. */
export function defaultKernel(): Kernel {
  if (selected) return selected;
  const choice = kernelChoice();
  if (choice === 'ts') return (selected = tsKernel);
  const { kernel, reason } = loadNativeKernel();
  if (kernel) return (selected = nativeKernel(kernel));
  if (choice === 'native')
    throw new Error(`GRAPH_KERNEL=native but the native kernel is unavailable: ${reason}`);
  return (selected = tsKernel);
}

/** The kernel by name, for tests and benchmarks; null when the native addon is not built. */
export function kernelByName(name: 'ts' | 'native'): Kernel | null {
  if (name === 'ts') return tsKernel;
  const { kernel } = loadNativeKernel();
  return kernel ? nativeKernel(kernel) : null;
}
