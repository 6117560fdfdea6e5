/**
 * Loads the optional C++ canonicaliser (native/src/canonical_json*.cc, built by
 * scripts/build-native.mjs). It writes RFC 8785 canonical JSON straight from the raw UTF-8
 * request bytes, inserting schema defaults on the way, and returns exactly
 * `canonicalJson(JSON.parse(text))` (with the defaults applied) from ./canonical-json.ts, or
 * null whenever it cannot be sure of that; the TypeScript path is then the answer.
 */
import { loadAddon } from '../repositories/native-addon.js';

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

function load(): { canonicalizer: NativeCanonicalizer | null; reason: string } {
  const { addon, reason } = loadAddon<Addon>('canonical_json');
  return {
    canonicalizer: addon && { canonicalize: addon.canonicalize, compilePlan: addon.compilePlan },
    reason,
  };
}

/** The addon, or null when it is not built, fails to load or has the wrong version. */
export function nativeCanonicalizer(): NativeCanonicalizer | null {
  return load().canonicalizer;
}

/** Why nativeCanonicalizer() returned what it did ("loaded <path>" or the failure). */
export function nativeCanonicalReason(): string {
  return load().reason;
}
