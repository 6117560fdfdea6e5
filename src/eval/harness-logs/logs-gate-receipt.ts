/**
 * One logs gate from two sources to a sealed receipt: the same code behind
 * POST /api/gate/logs, the MCP tool and `cli gate`.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';
import { sealReceipt, type SealedReceipt } from '../../core/receipt.js';
import { compileValidator } from '../../core/validation.js';
import { runCleanVersusFull } from './clean-full.js';
import { parseExposure, type ExposureSpec } from './exposure.js';
import { LogsGateOptions, readOptionsFor } from './options.js';
import { readLog } from './read.js';
import type { LogSource } from './source.js';
import { runLogsGate } from './logs-gate-decision.js';

export const LOGS_GATE_TOOL = 'gate-logs';

const validate = compileValidator(LogsGateOptions);

export interface LogInput {
  source: LogSource;
  sha256: string;
}

/** Options as sent (or `{}`), validated with defaults applied; a 400 names what is wrong. */
export function parseLogsGateOptions(raw: unknown): LogsGateOptions {
  return validate.assert(raw ?? {});
}

/** Declared exposure for clean-versus-full, parsed, with the SHA-256 of its bytes. */
export interface ExposureInput {
  spec: ExposureSpec;
  sha256: string;
}

export async function gateLogs(
  baseline: LogInput,
  candidate: LogInput,
  options: LogsGateOptions,
  exposure?: ExposureInput,
): Promise<SealedReceipt> {
  // Input texts are kept only when an exposure audit needs them.
  const keep = exposure !== undefined;
  const base = await readLog(baseline.source, readOptionsFor(options, 'baseline', keep));
  const cand = await readLog(candidate.source, readOptionsFor(options, 'candidate', keep));
  const sides = [
    { cohort: base, sha256: baseline.sha256, file: baseline.source.name },
    { cohort: cand, sha256: candidate.sha256, file: candidate.source.name },
  ] as const;
  const body = exposure
    ? runCleanVersusFull(sides[0], sides[1], options, exposure.spec)
    : runLogsGate(sides[0], sides[1], options);
  // The request is the files (by hash) and the options after defaults.
  const request = {
    baseline_sha256: baseline.sha256,
    candidate_sha256: candidate.sha256,
    ...(exposure ? { exposure_sha256: exposure.sha256 } : {}),
    options,
  };
  const requestSha = createHash('sha256').update(canonicalJson(request)).digest('hex');
  return sealReceipt(LOGS_GATE_TOOL, requestSha, body);
}

export function textSha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/** An exposure file's text as a gate input; a 400 names what is wrong with it. */
export function exposureInput(text: string, name?: string): ExposureInput {
  return { spec: parseExposure(text, name), sha256: textSha256(text) };
}
