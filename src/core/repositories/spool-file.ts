/**
 * Streams bytes into a file while hashing them (unless `algorithm` is undefined; on the digest
 * thread, digest-thread.ts, never the event loop); a partial file is removed when the stream
 * fails. Small chunks (a socket gives 64 KiB) are gathered into two reused 1 MiB buffers, so a large body costs one write call per MiB, one in flight while the
 * next fills, and no allocation per chunk. `concatenateFiles` joins files the same way.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ThreadDigest } from './digest-thread.js';

const BLOCK = 1024 * 1024;
// Blocks outlive one spool: fresh ones per request are external memory that sets off full
// mark-compacts (docs/music-domain.md, "Upload throughput, second pass").
const POOL_LIMIT = 8;
const pool: Buffer[] = [];
const takeBlock = (): Buffer => pool.pop() ?? Buffer.allocUnsafeSlow(BLOCK);
const giveBlock = (block: Buffer): void => {
  if (pool.length < POOL_LIMIT) pool.push(block);
};

export type SpoolDigest = 'md5' | 'sha256' | undefined;

export class SizeMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`expected ${expected} bytes, received ${received}`);
  }
}

/** Sequential writes to one file with at most one in flight; a failure is kept until the next call. */
class BlockWriter {
  private writing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  constructor(private readonly handle: FileHandle) {}

  /** Waits for the write in flight (throwing its failure), then starts writing `buffer[0, length)`. */
  async write(buffer: Buffer, length: number): Promise<void> {
    await this.settle();
    this.writing = this.writeAll(buffer, length).catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  /** Waits for the write in flight; throws when any write failed. */
  async settle(): Promise<void> {
    await this.writing;
    if (this.failure) throw this.failure.error;
  }

  /** Waits for the write in flight without throwing (before closing after another failure). */
  async drain(): Promise<void> {
    await this.writing;
  }

  private async writeAll(buffer: Buffer, length: number): Promise<void> {
    let done = 0;
    // A write to a regular file may in principle be short.
    while (done < length) done += (await this.handle.write(buffer, done, length - done)).bytesWritten;
  }
}

/** Opens `file` for writing, runs `fill`, closes it; on failure the partial file is removed. */
async function intoFile<T>(file: string, fill: (writer: BlockWriter) => Promise<T>): Promise<T> {
  const handle = await open(file, 'w');
  const writer = new BlockWriter(handle);
  try {
    const result = await fill(writer);
    await writer.settle();
    await handle.close();
    return result;
  } catch (err) {
    await writer.drain();
    await handle.close().catch(() => undefined);
    await rm(file, { force: true });
    throw err;
  }
}

export async function spoolToFile(
  source: Readable,
  file: string,
  algorithm: SpoolDigest,
  /** When given, a body of any other length fails (and its file is removed). */
  expectedSize?: number,
): Promise<{ digest: string; size: number }> {
  const hash = algorithm === undefined ? undefined : new ThreadDigest(algorithm);
  const blocks: [Buffer, Buffer] = [takeBlock(), takeBlock()];
  // The file opens before the loop listens: a source failing meanwhile must not throw unheard
  // (the loop still sees the error, as the stream keeps it).
  const heard = (): void => undefined;
  source.on('error', heard);
  try {
    // intoFile returns (or throws) only once no write is in flight: the blocks are free again.
    const size = await intoFile(file, (writer) => copyInto(source, writer, hash, expectedSize, blocks));
    return { digest: (await hash?.end()) ?? '', size };
  } catch (err) {
    hash?.drop();
    throw err;
  } finally {
    source.off('error', heard);
    blocks.forEach(giveBlock);
  }
}

async function copyInto(
  source: Readable,
  writer: BlockWriter,
  hash: ThreadDigest | undefined,
  expectedSize: number | undefined,
  blocks: [Buffer, Buffer],
): Promise<number> {
  let [filling, spare] = blocks;
  let used = 0;
  let size = 0;
  const flush = async (): Promise<void> => {
    // Hashed a block at a time (copied to the digest thread before update() returns).
    await hash?.update(filling.subarray(0, used));
    // write() waits for the previous block (in `spare`) before this one starts: swapping is safe.
    await writer.write(filling, used);
    [filling, spare] = [spare, filling];
    used = 0;
  };
  for await (const chunk of source as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Stop reading at once: a body longer than announced never fills the disk.
    if (expectedSize !== undefined && size > expectedSize) throw new SizeMismatchError(expectedSize, size);
    if (used === 0 && chunk.length >= BLOCK) {
      // Already a large block (a file read): written as it is, no copy.
      await hash?.update(chunk);
      await writer.write(chunk, chunk.length);
      continue;
    }
    let offset = 0;
    while (offset < chunk.length) {
      const copied = chunk.copy(filling, used, offset);
      used += copied;
      offset += copied;
      if (used === BLOCK) await flush();
    }
  }
  if (used > 0) await flush();
  if (expectedSize !== undefined && size !== expectedSize) throw new SizeMismatchError(expectedSize, size);
  return size;
}

/** Writes `parts` one after another into `file`, hashing the whole; reads 4 MiB at a time into two reused buffers. */
export async function concatenateFiles(
  parts: readonly string[],
  file: string,
  algorithm: SpoolDigest,
): Promise<{ digest: string; size: number }> {
  const hash = algorithm === undefined ? undefined : new ThreadDigest(algorithm);
  const size = await intoFile(file, async (writer) => {
    let reading = Buffer.allocUnsafeSlow(4 * BLOCK);
    let spare = Buffer.allocUnsafeSlow(4 * BLOCK);
    let total = 0;
    for (const part of parts) {
      const input = await open(part, 'r');
      try {
        for (;;) {
          // The previous block is being written from `spare` while this read fills `reading`.
          const { bytesRead } = await input.read(reading, 0, reading.length, null);
          if (bytesRead === 0) break;
          await hash?.update(reading.subarray(0, bytesRead));
          total += bytesRead;
          await writer.write(reading, bytesRead);
          [reading, spare] = [spare, reading];
        }
      } finally {
        await input.close();
      }
    }
    return total;
  }).catch((err: unknown) => {
    hash?.drop();
    throw err;
  });
  return { digest: (await hash?.end()) ?? '', size };
}
