/**
 * Streams the members of a zip archive through fflate's streaming Unzip, handing each wanted
 * member to the caller whole and then letting it go, so memory holds at most one member.
 * Zip bombs are refused while inflating: caps on each member's and the archive's inflated
 * bytes and on the inflation ratio, checked on every chunk (declared sizes can lie).
 */
import { inflateRawSync } from 'node:zlib';
import { Unzip, UnzipPassThrough, type FlateError, type UnzipDecoder, type UnzipFile } from 'fflate';
import { invalidInput } from '../../core/errors.js';
import type { LogSource } from './source.js';

export interface ZipLimits {
  /** Inflated bytes of one member. */
  maxMemberBytes: number;
  /** Inflated bytes of all the members read. */
  maxTotalBytes: number;
  /** Inflated / compressed bytes of one member, checked once it is past `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxMemberBytes: 128 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 4 * 1024 * 1024,
};

/** End of central directory record signature: its absence means the archive was cut. */
const EOCD = [0x50, 0x4b, 0x05, 0x06];
const TAIL_BYTES = 65_557; // the record (22) plus the longest comment (65535)

function hasEocd(tail: Uint8Array): boolean {
  for (let i = tail.length - 22; i >= 0; i--)
    if (tail[i] === EOCD[0] && tail[i + 1] === EOCD[1] && tail[i + 2] === EOCD[2] && tail[i + 3] === EOCD[3])
      return true;
  return false;
}

/** Calls `onMember` for each member `want` accepts, in archive order. */
export async function forEachZipMember(
  source: LogSource,
  want: (name: string) => boolean,
  onMember: (name: string, bytes: Uint8Array) => void,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<{ members: number }> {
  let failure: Error | null = null;
  let total = 0;
  let open = 0;
  let members = 0;
  // Read through a function: TypeScript cannot see the callbacks assign it.
  const failed = (): Error | null => failure;
  const fail = (err: Error, file?: UnzipFile): void => {
    failure ??= err;
    file?.terminate();
  };
  const unzip = new Unzip((file) => {
    if (failure || !want(file.name)) return;
    if (file.compression !== 0 && file.compression !== 8) {
      fail(
        invalidInput(
          `${source.name}: member ${file.name} uses zip compression method ${file.compression}; only stored and deflate are read.`,
        ),
      );
      return;
    }
    if (file.originalSize !== undefined && file.originalSize > limits.maxMemberBytes) {
      fail(bomb(source.name, file.name, `declares ${file.originalSize} inflated bytes`, limits));
      return;
    }
    const parts: Uint8Array[] = [];
    let inflated = 0;
    open++;
    file.ondata = (err, data, final) => {
      if (failure) return;
      if (err instanceof CapExceeded) {
        fail(
          bomb(
            source.name,
            file.name,
            err.cap >= limits.maxMemberBytes
              ? `inflates past ${limits.maxMemberBytes} bytes`
              : `inflates more than ${limits.maxRatio}× its ${file.size ?? 'unknown'} compressed bytes`,
            limits,
          ),
          file,
        );
        return;
      }
      if (err) {
        fail(invalidInput(`${source.name}: member ${file.name} is corrupt (${err.message}).`), file);
        return;
      }
      inflated += data.length;
      total += data.length;
      if (inflated > limits.maxMemberBytes)
        return fail(
          bomb(source.name, file.name, `inflates past ${limits.maxMemberBytes} bytes`, limits),
          file,
        );
      if (total > limits.maxTotalBytes)
        return fail(
          bomb(
            source.name,
            file.name,
            `brings the archive past ${limits.maxTotalBytes} inflated bytes`,
            limits,
          ),
          file,
        );
      if (
        file.size !== undefined &&
        inflated > limits.ratioFloorBytes &&
        inflated > limits.maxRatio * Math.max(1, file.size)
      )
        return fail(
          bomb(
            source.name,
            file.name,
            `inflates more than ${limits.maxRatio}× its ${file.size} compressed bytes`,
            limits,
          ),
          file,
        );
      parts.push(data);
      if (!final) return;
      open--;
      members++;
      const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      parts.length = 0;
      try {
        onMember(file.name, bytes);
      } catch (e) {
        fail(e as Error);
      }
    };
    file.start();
  });
  unzip.register(nativeInflate(limits));
  unzip.register(UnzipPassThrough);
  let tail: Uint8Array = new Uint8Array(0);
  let empty = true;
  try {
    for await (const chunk of source.chunks()) {
      empty = false;
      unzip.push(chunk, false);
      const f = failed();
      if (f) throw f;
      tail = keepTail(tail, chunk);
    }
    unzip.push(new Uint8Array(0), true);
  } catch (err) {
    throw (
      failed() ??
      invalidInput(
        `${source.name}: not a readable zip archive (${(err as Error).message}); was it cut short?`,
      )
    );
  }
  const f = failed();
  if (f) throw f;
  if (empty || open > 0 || !hasEocd(tail))
    throw invalidInput(
      `${source.name}: the zip archive is truncated (${open > 0 ? 'a member ends before its data does' : 'no end-of-archive record'}); upload the whole file.`,
    );
  return { members };
}

/**
 * Deflate members inflated by node's zlib (native, several times fflate's speed) once their
 * compressed bytes are in; the output is capped at the member limit and at the ratio limit
 * for its compressed size, so a bomb stops there rather than after inflating.
 */
function nativeInflate(limits: ZipLimits) {
  return class NativeInflate implements UnzipDecoder {
    static readonly compression = 8;
    ondata: UnzipDecoder['ondata'] = () => {};
    private readonly parts: Uint8Array[] = [];
    push(chunk: Uint8Array, final: boolean): void {
      if (chunk.length > 0) this.parts.push(chunk.slice());
      if (!final) return;
      const compressed = Buffer.concat(this.parts);
      this.parts.length = 0;
      const cap = Math.min(
        limits.maxMemberBytes,
        Math.max(limits.ratioFloorBytes, limits.maxRatio * compressed.length),
      );
      let out: Buffer;
      try {
        out = inflateRawSync(compressed, { maxOutputLength: cap + 1 });
      } catch (err) {
        const tooBig = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
        const failure = tooBig ? new CapExceeded(cap) : (err as Error);
        const flateError: FlateError = Object.assign(failure, { code: -1 });
        this.ondata(flateError, new Uint8Array(0), true);
        return;
      }
      // A copy into a plain ArrayBuffer (fflate's handler type); members are small.
      this.ondata(null, new Uint8Array(out), true);
    }
  };
}

/** Native inflation stopped at its output cap. */
class CapExceeded extends Error {
  constructor(readonly cap: number) {
    super(`inflates past ${cap} bytes`);
  }
}

function keepTail(tail: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (chunk.length >= TAIL_BYTES) return chunk.slice(chunk.length - TAIL_BYTES);
  const joined = new Uint8Array(Math.min(TAIL_BYTES, tail.length + chunk.length));
  const fromTail = joined.length - chunk.length;
  joined.set(tail.subarray(tail.length - fromTail), 0);
  joined.set(chunk, fromTail);
  return joined;
}

function bomb(source: string, member: string, what: string, limits: ZipLimits): Error {
  return invalidInput(
    `${source}: zip member ${member} ${what}; refused as a possible zip bomb (limits: ${limits.maxMemberBytes} bytes per member, ${limits.maxTotalBytes} in all, ratio ${limits.maxRatio}).`,
  );
}
