/**
 * A log file as the readers see it: its first bytes (for format detection) and a way to
 * stream all of it. Readers never hold a whole JSONL or zip log; a single JSON document is
 * held once, bounded by the per-file limit. Files on disk: repositories/log-files.ts.
 */
import { invalidInput } from '../../core/errors.js';

export interface LogSource {
  /** What the caller calls the file (the part's field or a path), for messages. */
  name: string;
  size: number;
  /** Up to the first HEAD_BYTES bytes. */
  head: Uint8Array;
  /** Read with `for await` (a file stream, or the chunks of a buffer). */
  chunks(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

export const HEAD_BYTES = 64 * 1024;

export function bufferSource(name: string, bytes: Uint8Array, chunkSize = 1 << 20): LogSource {
  return {
    name,
    size: bytes.byteLength,
    head: bytes.subarray(0, HEAD_BYTES),
    *chunks() {
      for (let at = 0; at < bytes.byteLength; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
    },
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The whole file as one JSON value (single-document formats; bounded by the upload limit). */
export async function readJsonDocument(source: LogSource): Promise<unknown> {
  const parts: Uint8Array[] = [];
  for await (const c of source.chunks()) parts.push(c);
  let text: string;
  try {
    text = utf8.decode(Buffer.concat(parts));
  } catch {
    throw invalidInput(`${source.name}: the file is not valid UTF-8 text.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw invalidInput(
      `${source.name}: the file is not valid JSON (${(err as Error).message}); was it cut short?`,
    );
  }
}

/**
 * The file's lines, streamed, with 1-based numbers; blank lines skipped. A last line without
 * its newline is still yielded (many writers omit it), flagged so a parse failure there can
 * say the file was cut.
 */
export async function* lines(
  source: LogSource,
): AsyncGenerator<{ line: number; text: string; last: boolean }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let line = 0;
  try {
    for await (const chunk of source.chunks()) {
      pending += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        line++;
        const text = pending.slice(0, nl).replace(/\r$/, '');
        pending = pending.slice(nl + 1);
        if (text.trim() !== '') yield { line, text, last: false };
      }
    }
    pending += decoder.decode();
  } catch (err) {
    if (err instanceof TypeError) throw invalidInput(`${source.name}: line ${line + 1} is not valid UTF-8.`);
    throw err;
  }
  if (pending.trim() !== '') yield { line: line + 1, text: pending.replace(/\r$/, ''), last: true };
}

/** One JSONL line as an object, or a 400 naming the line (and a cut-off last line). */
export function parseJsonLine(
  source: LogSource,
  entry: { line: number; text: string; last: boolean },
): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(entry.text);
  } catch (err) {
    throw invalidInput(
      `${source.name}: line ${entry.line} is not valid JSON (${(err as Error).message})` +
        (entry.last ? '; it is the last line and has no newline: the file looks cut off.' : '.'),
      [{ path: `/line/${entry.line}`, message: 'is not valid JSON' }],
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidInput(`${source.name}: line ${entry.line} is not a JSON object.`, [
      { path: `/line/${entry.line}`, message: 'is not a JSON object' },
    ]);
  return value as Record<string, unknown>;
}
