/**
 * `request_sha256`: SHA-256 of the canonical request after defaults. The native
 * canonicaliser works on the raw request bytes, inserting the schema's defaults itself
 * (src/eval/speed/defaults-plan.ts); it is several times faster than walking the parsed object,
 * whose large maps V8 keeps in dictionary mode (docs/eval-service.md, "Receipts"). The
 * TypeScript canonicaliser on the parsed object is the reference, and the answer whenever the
 * native one is not built, a schema's defaults cannot be planned, or the native one declines an
 * input (it returns null rather than guess).
 */
import { canonicalSha256, sha256Hex } from '../../core/canonical-json.js';
import { nativeCanonicalizer, type CompiledPlan } from './canonical-native.js';
import { defaultsPlan } from './defaults-plan.js';
import type { ToolDefinition } from '../tool-definition.js';

const plans = new Map<string, CompiledPlan | null>();

function planFor(tool: ToolDefinition): CompiledPlan | null {
  let plan = plans.get(tool.id);
  if (plan === undefined) {
    const native = nativeCanonicalizer();
    const node = native ? defaultsPlan(tool.schema) : null;
    try {
      plan = native && node ? native.compilePlan(node) : null;
    } catch {
      plan = null; // a plan the addon rejects: this tool hashes in TypeScript
    }
    plans.set(tool.id, plan);
  }
  return plan;
}

/**
 * `request` must be the validated request (defaults applied) parsed from `bytes`, and not
 * yet handed to the tool, which may keep working on it.
 */
export function requestSha256(tool: ToolDefinition, bytes: Uint8Array | string, request: unknown): string {
  if (typeof bytes !== 'string') {
    const plan = planFor(tool);
    const canonical = plan ? nativeCanonicalizer()?.canonicalize(bytes, plan) : null;
    if (canonical) return sha256Hex(canonical);
  }
  return canonicalSha256(request);
}
