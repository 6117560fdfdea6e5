/**
 * estimateContentLength for streams transcoded on the fly: the answer declares an estimated
 * Content-Length up front, so the body is made exactly that long (cut, or padded with zero
 * bytes that ADTS decoders skip while looking for the next frame's sync word) and the
 * connection never ends short of, or runs past, what was declared.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** ADTS adds 7 bytes a frame of 1024 samples: at most ~330 B/s up to 48 kHz. */
const ADTS_BYTES_PER_SECOND = Math.ceil((48_000 / 1024) * 7);

/** Bytes of `seconds` of ADTS AAC at `kbps`, rounded up. */
export function estimatedAdtsBytes(seconds: number, kbps: number): number {
  return Math.ceil(Math.max(0, seconds) * ((kbps * 1000) / 8 + ADTS_BYTES_PER_SECOND));
}

/** A stream that passes the first `length` bytes and pads with zeros up to `length` at its end. */
export function exactLength(length: number): Transform {
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      const room = length - sent;
      if (room <= 0) return done();
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      sent += part.length;
      done(null, part);
    },
    flush(done: TransformCallback) {
      const missing = length - sent;
      sent = length;
      done(null, missing > 0 ? Buffer.alloc(missing) : undefined);
    },
  });
}
