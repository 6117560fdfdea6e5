/**
 * The logs gate as an MCP tool (the last one): the two logs, and optionally an exposure file,
 * given in the arguments as text or base64, each bounded by the HTTP route's per-file limit;
 * the same code and receipt as POST /api/gate/logs.
 */
import { Type, type Static } from 'typebox';
import { createHash } from 'node:crypto';
import { invalidInput } from '../../core/errors.js';
import { compileValidator } from '../../core/validation.js';
import { LOGS_GATE_TOOL, parseLogsGateOptions } from '../harness-logs/logs-gate-receipt.js';
import { gateLogsOnPool, type GateLogsFile } from '../harness-logs/logs-gate-task.js';
import type { VerifierPool } from '../speed/pool.js';
import { LogsGateOptions } from '../harness-logs/options.js';
import { MAX_LOG_BYTES, tooLarge } from '../harness-logs/upload.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import { asToolResult, jsonResult, plainSchema, type McpTool } from './mcp-tools.js';

const MAX_BASE64 = Math.ceil(MAX_LOG_BYTES / 3) * 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const LogFile = (what: string) =>
  Type.Object(
    {
      name: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'File name, for messages and the receipt' }),
      ),
      text: Type.Optional(Type.String({ maxLength: MAX_LOG_BYTES, description: 'The file as UTF-8 text' })),
      base64: Type.Optional(
        Type.String({
          maxLength: MAX_BASE64,
          description: 'The file as base64 (binary logs: Inspect .eval zips)',
        }),
      ),
    },
    {
      additionalProperties: false,
      description: `${what}: exactly one of text or base64, up to ${MAX_LOG_BYTES / 2 ** 20} MB decoded`,
    },
  );

export const GateLogsToolRequest = Type.Object(
  {
    baseline: LogFile('The baseline harness log'),
    candidate: LogFile('The candidate harness log'),
    options: Type.Optional(LogsGateOptions),
    exposure: Type.Optional(
      LogFile(
        'Declared exposure (JSON rows or JSONL, as the leakage tool): gate the clean cohort beside the full one',
      ),
    ),
  },
  { additionalProperties: false },
);

type GateLogsToolRequest = Static<typeof GateLogsToolRequest>;
type LogFile = GateLogsToolRequest['baseline'];

const validate = compileValidator(GateLogsToolRequest);

/** A file argument's bytes: exactly one of text or base64, within the per-file limit. */
function bytesOf(file: LogFile, part: string): Uint8Array {
  if ((file.text === undefined) === (file.base64 === undefined))
    throw invalidInput(`The ${part} file needs exactly one of text or base64.`, [
      { path: `/${part}`, message: 'give exactly one of text, base64' },
    ]);
  let bytes: Uint8Array;
  if (file.base64 !== undefined) {
    if (file.base64.length % 4 !== 0 || !BASE64.test(file.base64))
      throw invalidInput(`The ${part} file's base64 is not valid base64.`, [
        { path: `/${part}/base64`, message: 'is not valid base64' },
      ]);
    bytes = Buffer.from(file.base64, 'base64');
  } else bytes = Buffer.from(file.text!, 'utf8');
  if (bytes.byteLength > MAX_LOG_BYTES) throw tooLarge(part);
  return bytes;
}

function logInput(file: LogFile, part: 'baseline' | 'candidate'): GateLogsFile {
  const bytes = bytesOf(file, part);
  return { name: file.name ?? part, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export function gateLogsMcpTool(usage: UsageCounters, pool: Pick<VerifierPool, 'runTask'>): McpTool {
  return {
    definition: {
      name: LOGS_GATE_TOOL,
      title: 'Promotion gate on harness logs',
      description:
        'PASS, HOLD or BLOCK from two evaluation-harness logs (Inspect AI .eval/.json, lm-evaluation-harness, promptfoo, OpenAI evals, HELM, DeepEval, gate cohorts), repeated runs included; with an exposure file, the clean cohort is gated beside the full one. Files as text or base64. Same as POST /api/gate/logs; returns the receipt.',
      inputSchema: plainSchema(GateLogsToolRequest),
    },
    call: async (args, context) => {
      const result = await asToolResult(async () => {
        const request = validate.assert(args, 'arguments');
        const baseline = logInput(request.baseline, 'baseline');
        const candidate = logInput(request.candidate, 'candidate');
        const exposure = request.exposure
          ? { text: Buffer.from(bytesOf(request.exposure, 'exposure')).toString('utf8') }
          : undefined;
        const options = parseLogsGateOptions(request.options);
        // Reading and gating run on a pool thread, as for POST /api/gate/logs.
        const sealed = await gateLogsOnPool(pool, {
          baseline,
          candidate,
          options,
          ...(exposure ? { exposure } : {}),
        });
        usage.record(LOGS_GATE_TOOL, 200, sealed.verdict);
        return jsonResult(sealed.text, context);
      });
      if (result.isError) {
        const status = (result.structuredContent as { status?: unknown } | undefined)?.status;
        usage.record(LOGS_GATE_TOOL, typeof status === 'number' ? status : 400);
      }
      return result;
    },
  };
}
