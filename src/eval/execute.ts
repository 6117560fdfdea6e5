/**
 * Runs one tool on raw request bytes: parse, validate (defaults applied), run, seal,
 * serialise. Pure and synchronous so the same code runs inline on the event loop and inside
 * a pool worker (workers/verifier.ts). Input errors come back as values, not exceptions,
 * because they must cross the worker boundary as plain data.
 */
import { NonFiniteNumberError } from '../core/canonical-json.js';
import { AppError, invalidInput, pointer, toProblem, type Problem } from '../core/errors.js';
import { firstTooDeep, tooDeepMessage } from './speed/json-depth.js';
import { sealReceipt, type Verdict } from '../core/receipt.js';
import { compileValidator, type Validator } from '../core/validation.js';
import { uniformMapFastPass } from './speed/uniform-map.js';
import { getTool } from './registry.js';
import { requestSha256 } from './speed/request-hash.js';
import type { ToolDefinition } from './tool-definition.js';
import { emptyJsonBody, invalidJsonBody } from '../core/errors/http.js';
import { bodyNotIJson, bodyNotUtf8, nestedTooDeep } from './errors.js';
import { iJsonErrors } from '../core/text-safety.js';

export interface ToolSuccess {
  ok: true;
  /** The response body: the receipt's canonical JSON text. */
  body: string;
  status: string;
  verdict?: Verdict;
  /** Milliseconds spent in each phase, for the Server-Timing header. */
  timings: ToolTimings;
}

export interface ToolTimings {
  parse: number;
  validate: number;
  run: number;
  seal: number;
}

export interface ToolFailure {
  ok: false;
  problem: Problem;
}

export type ToolOutcome = ToolSuccess | ToolFailure;

export const EXAMPLES_HINT = 'GET /api/examples holds a complete valid request for every tool';

const validators = new Map<string, Validator<unknown>>();

function validatorFor(toolId: string): Validator<unknown> {
  let v = validators.get(toolId);
  if (!v) {
    v = compileValidator(getTool(toolId).schema, { fastPass: uniformMapFastPass });
    validators.set(toolId, v);
  }
  return v;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export function parseJsonBody(bytes: Uint8Array | string): unknown {
  let text: string;
  try {
    text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
  } catch {
    throw bodyNotUtf8();
  }
  if (text.trim() === '') throw emptyJsonBody();
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (err) {
    throw invalidJsonBody((err as Error).message);
  }
  // One rule for every tool's input: nothing a receipt's RFC 8785 form cannot hold.
  const notIJson = iJsonErrors(text, value);
  if (notIJson.length > 0) throw bodyNotIJson(notIJson);
  return value;
}

function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/**
 * Walking a request recurses (canonicalisation, validation), so absurd nesting in a row's
 * free-form fields can overflow the stack: the overflow is caught and answered as the input
 * error it is, not checked up front on every request (docs/speed.md#nesting-depth-checked-only-after-an-overflow).
 */
function tooDeeplyNested(bytes: Uint8Array | string): AppError {
  const text =
    typeof bytes === 'string'
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return nestedTooDeep(tooDeepMessage(firstTooDeep(text)));
}

/** JSON pointer to the first non-finite number in `value`, depth first; null if none. */
function nonFiniteAt(value: unknown, path: (string | number)[] = []): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : pointer(...path);
  if (typeof value !== 'object' || value === null) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = nonFiniteAt(v, [...path, Array.isArray(value) ? Number(k) : k]);
    if (at !== null) return at;
  }
  return null;
}

/**
 * The request hash; a number literal beyond the double range (JSON.parse reads 1e400 as
 * Infinity) has no canonical form, and a free-form field can carry one past validation.
 */
function hashRequest(tool: ToolDefinition, bytes: Uint8Array | string, request: unknown): string {
  try {
    return requestSha256(tool, bytes, request);
  } catch (err) {
    if (!(err instanceof NonFiniteNumberError)) throw err;
    const at = nonFiniteAt(request) ?? '';
    throw invalidInput(
      `The request body holds a number beyond the range of a 64-bit float at ${at || '/'}; numbers must be finite (at most about 1.8e308).`,
      [{ path: at, message: 'is a number too large to represent' }],
    );
  }
}

export function executeTool(toolId: string, bytes: Uint8Array | string): ToolOutcome {
  const tool = getTool(toolId);
  try {
    const t0 = performance.now();
    const parsed = parseJsonBody(bytes);
    const t1 = performance.now();
    const { value: request, mapKeys } = validatorFor(toolId).validate(parsed);
    const t2 = performance.now();
    const body = tool.run(request, mapKeys);
    const t3 = performance.now();
    const sealed = sealReceipt(tool.id, hashRequest(tool, bytes, request), body);
    const t4 = performance.now();
    return {
      ok: true,
      body: sealed.text,
      status: sealed.status,
      ...(sealed.verdict ? { verdict: sealed.verdict } : {}),
      timings: { parse: t1 - t0, validate: t2 - t1, run: t3 - t2, seal: t4 - t3 },
    };
  } catch (thrown) {
    const err = isStackOverflow(thrown) ? tooDeeplyNested(bytes) : thrown;
    if (err instanceof AppError && err.status < 500) {
      return { ok: false, problem: { ...toProblem(err), hint: `${EXAMPLES_HINT} (examples.${tool.id}).` } };
    }
    throw err;
  }
}
