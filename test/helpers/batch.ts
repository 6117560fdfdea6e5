/* eslint-disable @typescript-eslint/no-explicit-any -- batch answer lines are parsed JSON; tests check their shape */
/** Batch requests for the tests: NDJSON bodies and their answer lines. */
import type { FastifyInstance } from 'fastify';

export const NDJSON_HEADERS = { 'content-type': 'application/x-ndjson' };

export function ndjson(lines: readonly (object | string)[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}

export function postBatch(
  app: FastifyInstance,
  body: string,
  headers: Record<string, string> = NDJSON_HEADERS,
) {
  return app.inject({ method: 'POST', url: '/api/batch', payload: body, headers });
}

/** The answer lines of a batch body, parsed, with each line's raw text. */
export function answerLines(body: string): { raw: string; line: any }[] {
  return body
    .split('\n')
    .filter((l) => l !== '')
    .map((raw) => ({ raw, line: JSON.parse(raw) }));
}

/** A receipt line's receipt text exactly as it was sent (the bytes after `"receipt":`). */
export function receiptText(raw: string): string {
  const at = raw.indexOf('"receipt":');
  if (at < 0) throw new Error(`not a receipt line: ${raw.slice(0, 200)}`);
  return raw.slice(at + '"receipt":'.length, -1);
}
