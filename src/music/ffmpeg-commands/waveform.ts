/**
 * Waveform peaks in BBC audiowaveform's formats, computed from a stream of signed 16-bit
 * little-endian mono PCM (ffmpeg `-f s16le -ac 1`). Only one min/max pair per pixel is kept,
 * never the PCM, so memory grows with the output (a 3-hour file at 512 samples per pixel is
 * ~930k pixels, 1.9 MB) and not with the audio.
 *
 * Formats: audiowaveform's doc/DataFormat.md: binary version 2 is a 24-byte header (int32
 * version, uint32 flags with bit 0 = 8-bit, int32 sample rate, int32 samples per pixel,
 * uint32 length, int32 channels) then min,max pairs; JSON version 2 carries the same fields
 * and `data`. 8-bit values are the 16-bit ones divided by 256 (truncated, as C++ integer division in audiowaveform).
 */

export const WAVEFORM_SAMPLES_PER_PIXEL = 512;
/** The second zoom level: an overview that a player draws without resampling. */
export const WAVEFORM_OVERVIEW_SAMPLES_PER_PIXEL = 4096;

export function waveformDecodeArgs(inputPath: string): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-stats', '-i', inputPath],
    ...['-map', '0:a:0', '-ac', '1', '-f', 's16le', '-acodec', 'pcm_s16le', 'pipe:1'],
  ];
}

export interface Waveform {
  sampleRate: number;
  samplesPerPixel: number;
  /** min,max pairs, 8-bit. */
  data: Int8Array;
}

/** Accumulates min/max per pixel over PCM chunks of any size (odd byte counts included). */
export class PeakAccumulator {
  private data = new Int8Array(1024);
  private pixels = 0;
  private inPixel = 0;
  private min = 0;
  private max = 0;
  private carry: number | undefined;

  constructor(
    readonly sampleRate: number,
    readonly samplesPerPixel: number,
  ) {
    if (!Number.isInteger(samplesPerPixel) || samplesPerPixel < 2) throw new Error('samplesPerPixel >= 2');
  }

  push(chunk: Uint8Array): void {
    let i = 0;
    if (this.carry !== undefined && chunk.length > 0) {
      this.sample((((chunk[0]! << 8) | this.carry) << 16) >> 16);
      this.carry = undefined;
      i = 1;
    }
    const end = chunk.length - ((chunk.length - i) % 2);
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (; i < end; i += 2) this.sample(view.getInt16(i, true));
    if (end < chunk.length) this.carry = chunk[end];
  }

  private sample(value: number): void {
    if (this.inPixel === 0) {
      this.min = value;
      this.max = value;
    } else if (value < this.min) this.min = value;
    else if (value > this.max) this.max = value;
    if (++this.inPixel === this.samplesPerPixel) this.flush();
  }

  private flush(): void {
    if (this.pixels * 2 + 2 > this.data.length) {
      const grown = new Int8Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.pixels * 2] = Math.trunc(this.min / 256);
    this.data[this.pixels * 2 + 1] = Math.trunc(this.max / 256);
    this.pixels++;
    this.inPixel = 0;
  }

  /** Ends the stream: a partial last pixel counts (a 0.2 s file still has a waveform). */
  finish(): Waveform {
    if (this.inPixel > 0) this.flush();
    return {
      sampleRate: this.sampleRate,
      samplesPerPixel: this.samplesPerPixel,
      data: this.data.slice(0, this.pixels * 2),
    };
  }
}

/** A coarser zoom level from a finer one (min of mins, max of maxes). */
export function rescaleWaveform(w: Waveform, samplesPerPixel: number): Waveform {
  const factor = samplesPerPixel / w.samplesPerPixel;
  if (!Number.isInteger(factor) || factor < 1) throw new Error('the new scale must be a multiple');
  const pixels = w.data.length / 2;
  const out = new Int8Array(Math.ceil(pixels / factor) * 2);
  for (let p = 0; p < pixels; p++) {
    const o = Math.floor(p / factor) * 2;
    const first = p % factor === 0;
    const lo = w.data[p * 2]!;
    const hi = w.data[p * 2 + 1]!;
    out[o] = first ? lo : Math.min(out[o]!, lo);
    out[o + 1] = first ? hi : Math.max(out[o + 1]!, hi);
  }
  return { sampleRate: w.sampleRate, samplesPerPixel, data: out };
}

export function waveformJson(w: Waveform): string {
  return JSON.stringify({
    version: 2,
    channels: 1,
    sample_rate: w.sampleRate,
    samples_per_pixel: w.samplesPerPixel,
    bits: 8,
    length: w.data.length / 2,
    data: Array.from(w.data),
  });
}

export function waveformDat(w: Waveform): Buffer {
  const out = Buffer.alloc(24 + w.data.length);
  out.writeInt32LE(2, 0);
  out.writeUInt32LE(1, 4);
  out.writeInt32LE(w.sampleRate, 8);
  out.writeInt32LE(w.samplesPerPixel, 12);
  out.writeUInt32LE(w.data.length / 2, 16);
  out.writeInt32LE(1, 20);
  Buffer.from(w.data.buffer, w.data.byteOffset, w.data.byteLength).copy(out, 24);
  return out;
}
