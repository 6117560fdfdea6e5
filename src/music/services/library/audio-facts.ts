/**
 * What a library file is, from music-metadata's reading of its bytes (found by content, never by
 * its name): an AudioProbe like the one an upload's ffprobe gives, or why it cannot be imported.
 * Tags go through readTags (ffmpeg-commands/probe.ts), the same normalisation as uploads.
 */
import { cutText } from '../../../core/text-length.js';
import { withoutRefusedCharacters } from '../../../core/text-safety.js';
import { ACCEPTED_AUDIO, readTags, type AudioProbe } from '../../ffmpeg-commands/probe.js';

/** The part of music-metadata's IAudioMetadata this module reads. */
export interface ReadMetadata {
  format: {
    container?: string;
    codec?: string;
    duration?: number;
    bitrate?: number;
    numberOfChannels?: number;
    sampleRate?: number;
    bitsPerSample?: number;
    numberOfSamples?: number;
    hasAudio?: boolean;
  };
  common: {
    title?: string;
    artist?: string;
    albumartist?: string;
    album?: string;
    genre?: string[];
    track: { no: number | null };
    disk: { no: number | null };
    year?: number;
    date?: string;
    compilation?: boolean;
    musicbrainz_recordingid?: string;
    musicbrainz_trackid?: string;
    musicbrainz_albumid?: string;
    musicbrainz_artistid?: string[];
    musicbrainz_albumartistid?: string[];
    picture?: unknown[];
  };
  quality: { warnings: { message: string }[] };
}

export type AudioFacts =
  { ok: true; probe: AudioProbe; embeddedCover: boolean } | { ok: false; reason: string };

/** Album artist of a compilation without one, as Navidrome and most taggers show it. */
export const VARIOUS_ARTISTS = 'Various Artists';

/** music-metadata container -> the ffprobe format name uploads are typed by (ACCEPTED_FORMATS). */
function formatOf(container: string): string | undefined {
  const c = container.toLowerCase();
  if (c === 'mpeg') return 'mp3';
  if (c === 'flac') return 'flac';
  if (c === 'ogg') return 'ogg';
  if (c === 'wave') return 'wav';
  if (c === 'aiff' || c === 'aiff-c') return 'aiff';
  if (c === 'adts') return 'aac';
  if (c.startsWith('m4a') || c.startsWith('mp4') || c.includes('isom') || c.startsWith('m4b')) return 'mov';
  return undefined;
}

/** music-metadata codec -> ffprobe codec name (what uploads store in `track_versions.codec`). */
function codecOf(codec: string, bits: number | undefined, format: string): string | undefined {
  const c = codec.toLowerCase();
  if (c.includes('layer 3')) return 'mp3';
  if (c === 'flac') return 'flac';
  if (c.startsWith('vorbis')) return 'vorbis';
  if (c === 'opus') return 'opus';
  if (c.includes('aac')) return 'aac';
  if (c === 'alac') return 'alac';
  if (c === 'pcm' || c.startsWith('pcm')) {
    const big = format === 'aiff' ? 'be' : 'le';
    if (bits === 8) return 'pcm_u8';
    if (bits === 24) return `pcm_s24${big}`;
    if (bits === 32) return `pcm_s32${big}`;
    return `pcm_s16${big}`;
  }
  return undefined;
}

function positive(n: number | undefined): number | null {
  return n !== undefined && Number.isFinite(n) && n > 0 ? Math.round(n) : null;
}

/**
 * The audio the header declares is not in the file: a WAV whose data chunk runs past the end, a
 * FLAC with no frame, an MP3 far shorter than its duration at its bitrate.
 */
function truncation(meta: ReadMetadata, format: string, size: number): string | undefined {
  // music-metadata says so for a WAV cut short (and, oddly, "data chunk size exceeds file size" for whole ones).
  const cut = meta.quality.warnings.find((w) => /chunk length exceeding file length/i.test(w.message));
  if (cut) return `truncated: ${cut.message}`;
  const { duration, bitrate, numberOfSamples, sampleRate } = meta.format;
  if (format === 'flac' && bitrate === 0) return 'truncated: the FLAC file holds no audio frame';
  // MPEG: the frames music-metadata counted against the duration the header (Xing) declares.
  if (
    format === 'mp3' &&
    duration &&
    numberOfSamples &&
    sampleRate &&
    numberOfSamples / sampleRate < duration * 0.9
  )
    return `truncated: ${(numberOfSamples / sampleRate).toFixed(2)} s of audio, its header declares ${duration.toFixed(2)} s`;
  if (
    (format === 'wav' || format === 'aiff') &&
    duration &&
    bitrate &&
    size < ((duration * bitrate) / 8) * 0.95
  )
    return `truncated: ${size} bytes, its header declares about ${Math.round((duration * bitrate) / 8)} bytes of audio`;
  return undefined;
}

/** The title a file without one gets: its name without the extension. */
export function titleFromName(name: string): string {
  const base = name.replace(/\.[^./]{1,8}$/, '');
  const cleaned = withoutRefusedCharacters(base).trim();
  return cutText(cleaned || 'Untitled', 200);
}

export function audioFacts(meta: ReadMetadata, size: number): AudioFacts {
  const container = meta.format.container ?? '';
  const format = formatOf(container);
  const codec = codecOf(meta.format.codec ?? '', meta.format.bitsPerSample, format ?? '');
  if (!format || !codec || meta.format.hasAudio === false) {
    const what = [container, meta.format.codec].filter(Boolean).join(' with ') || 'an unknown format';
    return { ok: false, reason: `not an accepted audio format (${what}); accepted: ${ACCEPTED_AUDIO}` };
  }
  const truncated = truncation(meta, format, size);
  if (truncated) return { ok: false, reason: truncated };
  const c = meta.common;
  const albumArtist = c.albumartist ?? (c.compilation ? VARIOUS_ARTISTS : undefined);
  // The names readTags knows (ffprobe's), so both readers end in one normalisation.
  const raw: Record<string, string> = {};
  const put = (name: string, value: string | number | null | undefined): void => {
    if (value !== undefined && value !== null) raw[name] = String(value);
  };
  put('title', c.title);
  put('artist', c.artist);
  put('album_artist', albumArtist);
  put('album', c.album);
  put('genre', c.genre?.[0]);
  put('track', c.track.no);
  put('disc', c.disk.no);
  put('date', c.date ?? c.year);
  put('musicbrainz_trackid', c.musicbrainz_recordingid);
  put('musicbrainz_releasetrackid', c.musicbrainz_trackid);
  put('musicbrainz_albumid', c.musicbrainz_albumid);
  put('musicbrainz_artistid', c.musicbrainz_artistid?.[0]);
  put('musicbrainz_albumartistid', c.musicbrainz_albumartistid?.[0]);
  const duration = meta.format.duration;
  return {
    ok: true,
    embeddedCover: (c.picture?.length ?? 0) > 0,
    probe: {
      format,
      codec,
      duration_ms:
        duration !== undefined && Number.isFinite(duration) && duration > 0
          ? Math.round(duration * 1000)
          : null,
      bit_rate: positive(meta.format.bitrate),
      channels: positive(meta.format.numberOfChannels),
      sample_rate: positive(meta.format.sampleRate),
      tags: readTags(raw),
    },
  };
}
