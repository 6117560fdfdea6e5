/**
 * The native addon as a counterexample kernel. Both kernels give identical outcomes for identical
 * inputs (kernel-differential.test.ts checks it), so the choice never shows in a receipt; which
 * one a thread runs is chosen outside the tool (src/eval/speed/graph-kernel.ts).
 */
import type { NativeGraphKernel } from '../../speed/graph-kernel-native.js';
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
