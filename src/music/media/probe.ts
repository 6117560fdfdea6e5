/**
 * ffprobe: the arguments that describe an input, and a parser that keeps only what the
 * pipeline needs (ffprobe's JSON writer: fftools/ffprobe.c, `-show_format -show_streams`).
 */

export interface ProbeInfo {
  durationMs: number;
  /** Channels of the first audio stream. */
  channels: number;
  sampleRate: number;
  /** Bits per second of the audio (stream's, else the container's); undefined when unknown. */
  bitRate: number | undefined;
  /** Index of the attached picture (cover art) stream, if any. */
  coverStreamIndex: number | undefined;
}

export function probeArgs(inputPath: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', inputPath];
}

interface RawStream {
  index?: number;
  codec_type?: string;
  channels?: number;
  sample_rate?: string;
  bit_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
}

interface RawProbe {
  streams?: RawStream[];
  format?: { duration?: string; bit_rate?: string };
}

const positive = (text: string | undefined): number | undefined => {
  const n = text === undefined ? NaN : Number(text);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** The probe of a playable audio input, or a sentence saying why it is not one. */
export function parseProbe(json: string): { ok: true; info: ProbeInfo } | { ok: false; reason: string } {
  let raw: RawProbe;
  try {
    raw = JSON.parse(json) as RawProbe;
  } catch {
    return { ok: false, reason: 'ffprobe did not describe the file' };
  }
  const streams = raw.streams ?? [];
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!audio) return { ok: false, reason: 'the file has no audio stream' };
  const durationSeconds = positive(audio.duration) ?? positive(raw.format?.duration);
  if (durationSeconds === undefined) return { ok: false, reason: 'the audio has no duration' };
  const channels = audio.channels ?? 0;
  const sampleRate = positive(audio.sample_rate);
  if (channels < 1 || sampleRate === undefined)
    return { ok: false, reason: 'the audio stream has no channels or sample rate' };
  const cover = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic === 1);
  return {
    ok: true,
    info: {
      durationMs: Math.round(durationSeconds * 1000),
      channels,
      sampleRate,
      bitRate: positive(audio.bit_rate) ?? positive(raw.format?.bit_rate),
      coverStreamIndex: cover?.index,
    },
  };
}
