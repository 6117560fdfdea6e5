/**
 * Finding and loading the optional C++ addons that scripts/build-native.mjs builds into
 * native/build/Release (the graph kernel, the canonical JSON writer). Each has a TypeScript
 * twin, so a missing or stale addon is a reason to report, not an error.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LoadedAddon<T> {
  addon: T | null;
  /** "loaded <path>", or why the addon is not used. */
  reason: string;
}

/** The path of native/build/Release/<name>.node in the nearest folder above this file. */
export function addonPath(name: string): string | null {
  const file = join('native', 'build', 'Release', `${name}.node`);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, file);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/**
 * The one ABI version of every addon in native/: binding.gyp compiles this value into each
 * (via scripts/native-abi.mjs, which reads it from this line), so bump it here when an
 * addon's surface changes and a stale build is refused instead of misread.
 */
export const NATIVE_ABI_VERSION = 1;

const loaded = new Map<string, LoadedAddon<unknown>>();

/** Loads native/build/Release/<name>.node once per thread; null unless its `version` is NATIVE_ABI_VERSION. */
export function loadAddon<T extends { version: number }>(name: string): LoadedAddon<T> {
  const version = NATIVE_ABI_VERSION;
  const known = loaded.get(name);
  if (known) return known as LoadedAddon<T>;
  const result = ((): LoadedAddon<T> => {
    const path = addonPath(name);
    if (!path)
      return {
        addon: null,
        reason: `native/build/Release/${name}.node is not built (run: node scripts/build-native.mjs)`,
      };
    try {
      const mod = createRequire(import.meta.url)(path) as T;
      if (mod.version !== version)
        return { addon: null, reason: `${path} is version ${mod.version}, expected ${version}: rebuild it` };
      return { addon: mod, reason: `loaded ${path}` };
    } catch (err) {
      return { addon: null, reason: `${path} failed to load: ${(err as Error).message}` };
    }
  })();
  loaded.set(name, result);
  return result;
}
