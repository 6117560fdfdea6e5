/**
 * Runs one tool on raw request bytes: parse, validate (defaults applied), run, seal,
 * serialise. Pure and synchronous so the same code runs inline on the event loop and inside
 * a pool worker (workers/verifier.ts). Input errors come back as values, not exceptions,
 * because they must cross the worker boundary as plain data.
 */
import { AppError, toProblem, type Problem } from '../core/errors.js';
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
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      return { ok: false, problem: { ...toProblem(err), hint: `${EXAMPLES_HINT} (examples.${tool.id}).` } };
    }
    throw err;
  }
}
