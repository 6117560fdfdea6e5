/**
 * The logs gate as a pool task: reading two logs (up to 64 MB each, streamed) and gating them
 * takes seconds, so POST /api/gate/logs and the MCP tool only spool or decode the inputs and
 * hand them to a pool thread (workers/gate-logs.ts). Input errors cross the thread as data.
 */
import { AppError, type FieldError } from '../../core/errors.js';
import type { VerifierPool } from '../speed/pool.js';
import { exposureInput, gateLogs, type LogInput } from './logs-gate-receipt.js';
import { fileSource } from '../repositories/log-files.js';
import type { LogsGateOptions } from './options.js';
import { bufferSource } from './source.js';
import { errorFromThread } from '../errors.js';

/** One log: a spooled file (the route) or its bytes (the MCP tool), with its SHA-256. */
export type GateLogsFile = { name: string; sha256: string } & ({ path: string } | { bytes: Uint8Array });

export interface GateLogsTask {
  baseline: GateLogsFile;
  candidate: GateLogsFile;
  /** Validated, defaults applied. */
  options: LogsGateOptions;
  /** The exposure file's text, parsed on the thread too. */
  exposure?: { text: string; name?: string };
}

export type GateLogsResult =
  | { ok: true; text: string; status: string; verdict?: string }
  | { ok: false; code: AppError['code']; detail: string; errors?: FieldError[] };

async function input(file: GateLogsFile): Promise<LogInput> {
  const source =
    'path' in file ? await fileSource(file.name, file.path) : bufferSource(file.name, file.bytes);
  return { source, sha256: file.sha256 };
}

/** Runs on a pool thread. */
export async function runGateLogsTask(task: GateLogsTask): Promise<GateLogsResult> {
  try {
    const exposure = task.exposure ? exposureInput(task.exposure.text, task.exposure.name) : undefined;
    const sealed = await gateLogs(
      await input(task.baseline),
      await input(task.candidate),
      task.options,
      exposure,
    );
    return {
      ok: true,
      text: sealed.text,
      status: sealed.status,
      ...(sealed.verdict ? { verdict: sealed.verdict } : {}),
    };
  } catch (err) {
    if (err instanceof AppError && err.status < 500)
      return {
        ok: false,
        code: err.code,
        detail: err.message,
        ...(err.errors ? { errors: err.errors } : {}),
      };
    throw err;
  }
}

/** On the event loop: the task on a pool thread; an input error is thrown as the AppError it was. */
export async function gateLogsOnPool(
  pool: Pick<VerifierPool, 'runTask'>,
  task: GateLogsTask,
): Promise<{ text: string; status: string; verdict?: string }> {
  const result = await pool.runTask<GateLogsTask, GateLogsResult>('gate-logs', task);
  if (!result.ok) throw errorFromThread(result.code, result.detail, result.errors);
  return result;
}
