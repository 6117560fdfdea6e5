/**
 * ffprobe, pure: the arguments that describe an input (`-show_format -show_streams`, JSON) and
 * the one parser of what it prints: the facts the pipeline needs (parseProbe, the workers), and
 * whether an upload is audio we accept with its tags (judgeProbe). ffprobe runs in
 * repositories/ffprobe.ts (uploads) and through repositories/ffmpeg-runner.ts (workers).
 * Field names: ffprobe's JSON writer (fftools/ffprobe.c, show_format/show_stream).
 */
import { cutText } from '../../core/text-length.js';
import { isPartialDate } from '../../core/text-patterns.js';
import { withoutRefusedCharacters } from '../../core/text-safety.js';

interface RawStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  channels?: number;
  sample_rate?: string;
  bit_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
}

interface RawProbe {
  format?: {
    format_name?: string;
    format_long_name?: string;
    duration?: string;
    bit_rate?: string;
    tags?: Record<string, string>;
  };
  streams?: RawStream[];
}

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

// What an upload is: accepted audio with its facts and tags, or what ffprobe found instead.
/** ffprobe format names (the first of a comma list) we accept, and what a person calls them. */
const ACCEPTED_FORMATS: Record<string, string> = {
  mp3: 'MP3',
  flac: 'FLAC',
  wav: 'WAV',
  ogg: 'Ogg (Vorbis, Opus or FLAC)',
  mov: 'MPEG-4 audio (m4a/AAC)',
  aac: 'AAC (ADTS)',
  aiff: 'AIFF',
};

const ACCEPTED_CODECS = new Set([
  'mp3',
  'flac',
  'vorbis',
  'opus',
  'aac',
  'alac',
  'pcm_s16le',
  'pcm_s24le',
  'pcm_s32le',
  'pcm_f32le',
  'pcm_u8',
  'pcm_s16be',
  'pcm_s24be',
  'pcm_s32be',
  'pcm_f32be',
]);

export interface AudioTags {
  title: string | null;
  artist: string | null;
  album_artist: string | null;
  album: string | null;
  genre: string | null;
  track_number: number | null;
  disc_number: number | null;
  year: number | null;
  date: string | null;
  musicbrainz_recording_id: string | null;
  musicbrainz_track_id: string | null;
  musicbrainz_album_id: string | null;
  musicbrainz_artist_id: string | null;
  musicbrainz_album_artist_id: string | null;
}

export interface AudioProbe {
  format: string;
  codec: string;
  duration_ms: number | null;
  bit_rate: number | null;
  channels: number | null;
  sample_rate: number | null;
  tags: AudioTags;
}

export type ProbeVerdict = { ok: true; probe: AudioProbe } | { ok: false; found: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function int(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number.parseInt(text, 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Tag keys differ by container (ID3 TPE2 -> album_artist, Vorbis ALBUMARTIST, iTunes "----:..."); lower-cased lookup. */
function tagReader(
  ...sources: (Record<string, string> | undefined)[]
): (...names: string[]) => string | null {
  const merged = new Map<string, string>();
  for (const source of sources) {
    for (const [k, v] of Object.entries(source ?? {})) {
      const key = k.toLowerCase();
      if (!merged.has(key) && v.trim() !== '') merged.set(key, v.trim());
    }
  }
  return (...names) => {
    for (const name of names) {
      const v = merged.get(name);
      if (v !== undefined) return v;
    }
    return null;
  };
}

/** "3/12" -> 3 */
function ordinal(text: string | null): number | null {
  return text === null ? null : int(text.split('/')[0]);
}

function mbid(text: string | null): string | null {
  // Several ids ("a/b" or "a; b") for multi-artist credits: keep the first.
  const first = text?.split(/[;/]/)[0]?.trim() ?? null;
  return first !== null && UUID.test(first) ? first.toLowerCase() : null;
}

function text(value: string | null, max: number): string | null {
  // The characters typed text may not hold (text-safety.ts) never reach our columns from a file either.
  const cleaned = value === null ? '' : withoutRefusedCharacters(value).trim();
  return cleaned ? cutText(cleaned, max).trim() : null;
}

export function readTags(format?: Record<string, string>, stream?: Record<string, string>): AudioTags {
  const tag = tagReader(format, stream);
  const dated = text(tag('date', 'originaldate', 'year', 'tdrc', 'tyer'), 32);
  const year = dated !== null ? int(/^(\d{4})/.exec(dated)?.[1]) : null;
  // Dates are dates: the longest real date the tag starts with (2020-13-45 keeps only 2020).
  const date = dated === null ? null : ([10, 7, 4].map((n) => dated.slice(0, n)).find(isPartialDate) ?? null);
  return {
    title: text(tag('title'), 500),
    artist: text(tag('artist'), 500),
    album_artist: text(tag('album_artist', 'albumartist', 'album artist'), 500),
    album: text(tag('album'), 500),
    genre: text(tag('genre'), 200),
    track_number: ordinal(tag('track', 'tracknumber')),
    disc_number: ordinal(tag('disc', 'discnumber')),
    year,
    date,
    musicbrainz_recording_id: mbid(tag('musicbrainz_trackid', 'musicbrainz track id')),
    musicbrainz_track_id: mbid(tag('musicbrainz_releasetrackid', 'musicbrainz release track id')),
    musicbrainz_album_id: mbid(tag('musicbrainz_albumid', 'musicbrainz album id')),
    musicbrainz_artist_id: mbid(tag('musicbrainz_artistid', 'musicbrainz artist id')),
    musicbrainz_album_artist_id: mbid(tag('musicbrainz_albumartistid', 'musicbrainz album artist id')),
  };
}

/** Accepts decodable audio of the listed formats; otherwise says what ffprobe found. */
export function judgeProbe(raw: unknown): ProbeVerdict {
  const probe = (raw ?? {}) as RawProbe;
  const formatName = probe.format?.format_name ?? '';
  const first = formatName.split(',')[0] ?? '';
  const audio = (probe.streams ?? []).find(
    (s) => s.codec_type === 'audio' && s.disposition?.attached_pic !== 1,
  );
  const what = `${probe.format?.format_long_name ?? (formatName || 'an unknown format')}${audio?.codec_name ? ` with ${audio.codec_name} audio` : ', no audio stream'}`;
  if (!(first in ACCEPTED_FORMATS) || !audio?.codec_name || !ACCEPTED_CODECS.has(audio.codec_name)) {
    return { ok: false, found: what };
  }
  const duration = Number(audio.duration ?? probe.format?.duration);
  return {
    ok: true,
    probe: {
      format: first,
      codec: audio.codec_name,
      duration_ms: Number.isFinite(duration) && duration > 0 ? Math.round(duration * 1000) : null,
      bit_rate: int(audio.bit_rate) ?? int(probe.format?.bit_rate),
      channels: audio.channels ?? null,
      sample_rate: int(audio.sample_rate),
      tags: readTags(probe.format?.tags, audio.tags),
    },
  };
}

export const ACCEPTED_AUDIO = Object.values(ACCEPTED_FORMATS).join(', ');
