/**
 * Loads the optional C++ canonicaliser (native/src/canonical_json*.cc, built by
 * scripts/build-native.mjs). It writes RFC 8785 canonical JSON straight from the raw UTF-8
 * request bytes, inserting schema defaults on the way, and returns exactly
 * `canonicalJson(JSON.parse(text))` (with the defaults applied) from ./canonical-json.ts, or
 * null whenever it cannot be sure of that; the TypeScript path is then the answer.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where schema defaults go, mirroring ajv's `useDefaults`: a property with a `default` is
 * inserted when it is absent from an object the node applies to.
 */
export interface PlanNode {
  props?: Record<string, PlanProp>;
  /** Applies to every key of an object that `props` does not list. */
  additional?: PlanNode;
  /** Applies to every element of an array. */
  items?: PlanNode;
}

export interface PlanProp {
  node?: PlanNode;
  /**
   * The default as canonical JSON text, with its own nested defaults already applied; it is
   * inserted verbatim (compilePlan rejects text that is not canonical).
   */
  default?: string;
}

declare const compiledPlan: unique symbol;
/** An opaque handle from compilePlan; it keeps the compiled plan alive. */
export interface CompiledPlan {
  readonly [compiledPlan]: true;
}

export interface NativeCanonicalizer {
  /**
   * The canonical JSON of the document in `bytes` (one leading BOM and surrounding JSON
   * whitespace allowed), as a new Buffer; null for invalid UTF-8, anything that is not
   * RFC 8259 JSON, nesting deeper than 1000, or a number that overflows a double.
   */
  canonicalize: (bytes: Uint8Array, plan?: CompiledPlan) => Buffer | null;
  /** Throws TypeError on a malformed plan (unknown fields, wrong types, non-canonical default). */
  compilePlan: (plan: PlanNode) => CompiledPlan;
}

interface Addon extends NativeCanonicalizer {
  version: number;
}

export const CANONICAL_ADDON_FILE = join('native', 'build', 'Release', 'canonical_json.node');
export const CANONICAL_ABI_VERSION = 1;

/**
 * Whether this environment promises the addon: under CI (`make test` builds it first). Tests
 * comparing it with the TypeScript reference must then fail, not skip, when it is missing.
 */
export function nativeCanonicalRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/** The first native/build/Release/canonical_json.node above this file. */
export function findCanonicalAddon(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, CANONICAL_ADDON_FILE);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

let cached: { canonicalizer: NativeCanonicalizer | null; reason: string } | null = null;

function load(): { canonicalizer: NativeCanonicalizer | null; reason: string } {
  if (cached) return cached;
  const path = findCanonicalAddon();
  if (!path) {
    cached = {
      canonicalizer: null,
      reason: `${CANONICAL_ADDON_FILE} is not built (run: node scripts/build-native.mjs)`,
    };
    return cached;
  }
  try {
    const mod = createRequire(import.meta.url)(path) as Addon;
    if (mod.version !== CANONICAL_ABI_VERSION)
      cached = {
        canonicalizer: null,
        reason: `${path} is version ${mod.version}, expected ${CANONICAL_ABI_VERSION}: rebuild it`,
      };
    else
      cached = {
        canonicalizer: { canonicalize: mod.canonicalize, compilePlan: mod.compilePlan },
        reason: `loaded ${path}`,
      };
  } catch (err) {
    cached = { canonicalizer: null, reason: `${path} failed to load: ${(err as Error).message}` };
  }
  return cached;
}

/** The addon, or null when it is not built, fails to load or has the wrong version. */
export function nativeCanonicalizer(): NativeCanonicalizer | null {
  return load().canonicalizer;
}

/** Why nativeCanonicalizer() returned what it did ("loaded <path>" or the failure). */
export function nativeCanonicalReason(): string {
  return load().reason;
}
