/**
 * Harness logs on disk: a file as a LogSource (its head read once, the rest streamed), its
 * SHA-256, and the temporary folder an upload is spooled into.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HEAD_BYTES, type LogSource } from '../harness-logs/source.js';
import type { LogInput } from '../harness-logs/logs-gate-receipt.js';

export async function fileSource(name: string, file: string): Promise<LogSource> {
  const { size } = await stat(file);
  const handle = await open(file, 'r');
  const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  return {
    name,
    size,
    head,
    chunks: () => createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>,
  };
}

export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A local file as a gate input (the CLI). */
export async function fileInput(file: string): Promise<LogInput> {
  return { source: await fileSource(file, file), sha256: await fileSha256(file) };
}

/** Runs `use` with a fresh temporary folder (named `<prefix>…`), removed afterwards whatever happens. */
export async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
