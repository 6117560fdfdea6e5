/**
 * POST /api/gate/logs: two harness logs as multipart/form-data (files `baseline` and
 * `candidate`, an optional `options` JSON part) -> the gate's receipt. Each file is spooled
 * to a temporary file while hashed; reading and gating run on a pool thread (logs-gate-task.ts),
 * so the event loop only moves bytes.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import path from 'node:path';
import { AppError, invalidInput } from '../../core/errors.js';
import { LOGS_GATE_TOOL, parseLogsGateOptions } from '../harness-logs/logs-gate-receipt.js';
import { gateLogsOnPool, type GateLogsFile } from '../harness-logs/logs-gate-task.js';
import type { VerifierPool } from '../speed/pool.js';
import { MAX_LOG_BYTES, spoolLog, tooLarge } from '../harness-logs/upload.js';
import { withTempDir } from '../repositories/log-files.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import { gateLogsNotMultipart, tooManyLogParts } from '../errors.js';

export const GATE_LOGS_PATH = '/api/gate/logs';
export const GATE_LOGS_HINT =
  'POST /api/gate/logs takes multipart/form-data: files "baseline" and "candidate" (harness logs, up to 64 MB each), an optional "options" part holding JSON and an optional "exposure" part (declared exposure, JSON or JSONL: clean versus full) (GET /api/examples, examples["gate-logs"])';

type Side = 'baseline' | 'candidate';

export function registerGateLogsRoute(
  app: FastifyInstance,
  deps: { usage: UsageCounters; pool: Pick<VerifierPool, 'runTask'> },
): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: {
        fileSize: MAX_LOG_BYTES,
        files: 3,
        fields: 2,
        parts: 4,
        fieldSize: 64 * 1024,
        headerPairs: 100,
      },
    });
    const verdicts = new WeakMap<object, string>();
    scope.addHook('onResponse', (request, reply, done) => {
      deps.usage.record(LOGS_GATE_TOOL, reply.statusCode, verdicts.get(request));
      done();
    });
    // Uploads of up to 3 × 64 MB: bounded by a minimum transfer rate, not a total time.
    scope.post(
      GATE_LOGS_PATH,
      { config: { problemHint: GATE_LOGS_HINT, bodyTransfer: 'min-rate' } },
      async (request, reply) => {
        if (!request.isMultipart()) throw gateLogsNotMultipart(GATE_LOGS_HINT);
        return withTempDir('gate-logs-', async (dir) => {
          const files: Partial<Record<Side, GateLogsFile>> = {};
          let rawOptions: unknown = {};
          let exposure: { text: string } | undefined;
          let current = 'uploaded';
          try {
            for await (const part of request.parts()) {
              if (part.fieldname === 'exposure') {
                if (exposure) throw invalidInput('Two "exposure" parts; send one.');
                current = 'exposure';
                exposure = {
                  text: part.type === 'file' ? await exposureText(part.file) : String(part.value),
                };
              } else if (part.type === 'file') {
                const side = part.fieldname;
                if (side !== 'baseline' && side !== 'candidate')
                  throw invalidInput(
                    `Unexpected file part "${side}"; send files "baseline" and "candidate".`,
                  );
                if (files[side]) throw invalidInput(`Two "${side}" files; send one of each.`);
                current = side;
                const file = path.join(dir, side);
                const sha256 = await spoolLog(part.file, file, side);
                // The stream ends early at the limit; the plugin's error would only come with the next part.
                if (part.file.truncated) throw tooLarge(side);
                files[side] = { name: part.filename || side, path: file, sha256 };
              } else if (part.fieldname === 'options') {
                rawOptions = parseOptionsPart(part.value);
              } else {
                throw invalidInput(
                  `Unexpected field "${part.fieldname}"; the fields are "options" (JSON) and "exposure".`,
                );
              }
            }
          } catch (err) {
            throw multipartError(err, current);
          }
          const missing = (['baseline', 'candidate'] as const).filter((s) => !files[s]);
          if (missing.length > 0)
            throw invalidInput(
              `Missing file part(s): ${missing.join(', ')}. ${GATE_LOGS_HINT}.`,
              missing.map((m) => ({ path: `/${m}`, message: 'is required' })),
            );
          const options = parseLogsGateOptions(rawOptions);
          const sealed = await gateLogsOnPool(deps.pool, {
            baseline: files.baseline!,
            candidate: files.candidate!,
            options,
            ...(exposure ? { exposure } : {}),
          });
          if (sealed.verdict) verdicts.set(request, sealed.verdict);
          return send(reply, sealed.text, sealed.status);
        });
      },
    );
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The exposure file part as text (bounded by the per-file limit; a 413 past it). */
async function exposureText(stream: AsyncIterable<Buffer> & { truncated?: boolean }): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  if (stream.truncated) throw tooLarge('exposure');
  try {
    return utf8.decode(Buffer.concat(chunks));
  } catch {
    throw invalidInput('The exposure part is not valid UTF-8 text.', [
      { path: '/exposure', message: 'is not valid UTF-8' },
    ]);
  }
}

function send(reply: FastifyReply, text: string, status: string): FastifyReply {
  void reply.header('x-receipt-status', status);
  return reply.code(200).type('application/json; charset=utf-8').send(Buffer.from(text, 'utf8'));
}

function parseOptionsPart(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return {};
  try {
    return JSON.parse(value) as unknown;
  } catch (err) {
    throw invalidInput(`The "options" part is not valid JSON (${(err as Error).message}).`, [
      { path: '/options', message: 'is not valid JSON' },
    ]);
  }
}

/** @fastify/multipart's limit errors, in the service's words. */
function multipartError(err: unknown, part: string): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: unknown }).code;
  switch (typeof code === 'string' ? code : '') {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(part);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return tooManyLogParts();
    case 'FST_PROTO_VIOLATION':
      return invalidInput('A part is named "__proto__" or similar; rename it.');
    case 'FST_MP_PREMATURE_CLOSE':
      return invalidInput('The upload ended before the multipart body did.');
    default:
      return err;
  }
}
