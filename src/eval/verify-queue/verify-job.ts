/**
 * The wire format of the BullMQ `verify` queue, shared by `eval` (producer) and `verify-worker`
 * (consumer). Job data is JSON, so the raw request bytes travel as base64: exact for any bytes,
 * a fixed 4/3 size, and encoded natively.
 */
import type { ToolOutcome } from '../execute.js';

export const VERIFY_QUEUE = 'verify';

export interface VerifyJobData {
  /** The tool id (registry). */
  tool: string;
  /** The raw request body, base64. */
  body: string;
  /** Epoch ms after which the producer no longer waits: a worker skips the job. */
  deadline: number;
}

/** A job's return value is executeTool's outcome as is; the receipt text crosses unchanged. */
export type VerifyJobResult = ToolOutcome;

/** Why a worker refused a job whose producer had already given up. */
export const DEADLINE_PASSED = 'verify deadline passed before the job started';

export function encodeJob(tool: string, bytes: Uint8Array, deadline: number): VerifyJobData {
  return {
    tool,
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    deadline,
  };
}

export function decodeBody(data: VerifyJobData): Buffer {
  return Buffer.from(data.body, 'base64');
}
