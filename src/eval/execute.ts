/**
 * Runs one tool on raw request bytes: parse, validate (defaults applied), run, seal,
 * serialise. Pure and synchronous so the same code runs inline on the event loop and inside
 * a pool worker (workers/verifier.ts). Input errors come back as values, not exceptions,
 * because they must cross the worker boundary as plain data.
 */
import { AppError, toProblem, type Problem } from '../core/errors.js';
import { firstTooDeep, MAX_JSON_DEPTH } from '../core/json-depth.js';
import { sealWithText, type Verdict } from '../core/receipt.js';
import { compileValidator, type Validator } from '../core/validation.js';
import { getTool } from './registry.js';

export interface ToolSuccess {
  ok: true;
  body: string;
  status: string;
  verdict?: Verdict;
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
    v = compileValidator(getTool(toolId).schema);
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
    throw new AppError('invalid_json', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '')
    throw new AppError('invalid_json', 'The request body is empty; a JSON object is required.');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError('invalid_json', `The request body is not valid JSON: ${(err as Error).message}.`);
  }
}

function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/**
 * Walking a request recurses (canonicalisation, validation), so absurd nesting in a row's
 * free-form fields can overflow the stack. Checking depth up front costs ~1 ms per 600 KB on
 * every request; the overflow itself is caught instead and answered as the input error it is.
 */
function tooDeeplyNested(bytes: Uint8Array | string): AppError {
  const text =
    typeof bytes === 'string'
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const at = firstTooDeep(text);
  return new AppError(
    'invalid_input',
    `The request body nests arrays/objects too deeply to process` +
      (at >= 0 ? ` (level ${MAX_JSON_DEPTH + 1} starts at character ${at})` : '') +
      `; keep nesting under ${MAX_JSON_DEPTH} levels.`,
  );
}

export function executeTool(toolId: string, bytes: Uint8Array | string): ToolOutcome {
  const tool = getTool(toolId);
  try {
    const request = validatorFor(toolId).assert(parseJsonBody(bytes));
    const { receipt, text } = sealWithText(tool.id, request, tool.run(request));
    return {
      ok: true,
      body: text,
      status: receipt.status,
      ...(receipt.verdict ? { verdict: receipt.verdict } : {}),
    };
  } catch (thrown) {
    const err = isStackOverflow(thrown) ? tooDeeplyNested(bytes) : thrown;
    if (err instanceof AppError && err.status < 500) {
      return { ok: false, problem: { ...toProblem(err), hint: `${EXAMPLES_HINT} (examples.${tool.id}).` } };
    }
    throw err;
  }
}
