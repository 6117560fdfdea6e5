/** Answers of the track API: tracks, versions (with signed media URLs) and tags. */
import type { TrackSummary, VersionRecord, VersionTagColumns } from '../repositories/track-repository.js';
import type { AudioTags } from '../ffmpeg-commands/probe.js';
import { signedUrl } from './secure-link.js';

export interface MediaSigner {
  secret: string;
  ttlSeconds: number;
  nowSeconds: () => number;
}

const TAG_COLUMNS: Record<keyof AudioTags, keyof VersionTagColumns> = {
  title: 'tagTitle',
  artist: 'tagArtist',
  album_artist: 'tagAlbumArtist',
  album: 'tagAlbum',
  genre: 'tagGenre',
  track_number: 'tagTrackNumber',
  disc_number: 'tagDiscNumber',
  year: 'tagYear',
  date: 'tagDate',
  musicbrainz_recording_id: 'mbRecordingId',
  musicbrainz_track_id: 'mbTrackId',
  musicbrainz_album_id: 'mbAlbumId',
  musicbrainz_artist_id: 'mbArtistId',
  musicbrainz_album_artist_id: 'mbAlbumArtistId',
};

export function tagsOf(v: VersionTagColumns): AudioTags {
  const out = {} as Record<keyof AudioTags, string | number | null>;
  for (const [name, column] of Object.entries(TAG_COLUMNS) as [keyof AudioTags, keyof VersionTagColumns][])
    out[name] = v[column];
  return out as unknown as AudioTags;
}

export function tagColumns(tags: Partial<AudioTags>): Partial<VersionTagColumns> {
  const out: Record<string, string | number | null> = {};
  for (const [name, value] of Object.entries(tags) as [keyof AudioTags, string | number | null][])
    out[TAG_COLUMNS[name]] = value;
  return out;
}

/**
 * A new version's tags (one title everywhere, issue 44): the track's metadata, as its shown
 * version holds it, wins; the file's tags fill only what the track does not have yet, so a file
 * without date or genre tags never wipes the track's year or genre.
 */
export function inheritedTags(
  file: Partial<VersionTagColumns>,
  shown: VersionTagColumns | undefined,
): Partial<VersionTagColumns> {
  const out: Record<string, string | number | null> = { ...file };
  if (shown === undefined) return file;
  for (const column of Object.values(TAG_COLUMNS)) if (shown[column] !== null) out[column] = shown[column];
  return out;
}

export function hlsMasterKey(hlsKey: string): string {
  return hlsKey.endsWith('.m3u8') ? hlsKey : `${hlsKey.replace(/\/$/, '')}/master.m3u8`;
}

/** `detail`: the caller manages the track (mayManage); only they see a failed step's error text. */
export function versionView(v: VersionRecord, signer: MediaSigner, detail: boolean) {
  const ready = v.status === 'ready';
  const sign = (uri: string): string => signedUrl(uri, signer.secret, signer.ttlSeconds, signer.nowSeconds());
  return {
    id: v.id,
    number: v.number,
    status: v.status,
    error: detail ? v.error : null,
    duration_ms: v.durationMs,
    codec: v.codec,
    bit_rate: v.bitRate,
    channels: v.channels,
    sample_rate: v.sampleRate,
    loudness:
      v.loudnessIntegrated === null
        ? null
        : {
            integrated_lufs: v.loudnessIntegrated,
            range_lu: v.loudnessRange,
            true_peak_dbtp: v.truePeak,
            replay_gain_db: v.replayGain,
          },
    tags: tagsOf(v),
    hls_url: ready && v.hlsKey ? sign(`/media/hls/${hlsMasterKey(v.hlsKey)}`) : null,
    progressive_url: ready && v.progressiveKey ? sign(`/media/hls/${v.progressiveKey}`) : null,
    waveform_url: ready && v.waveformKey ? `/waveforms/${v.waveformKey}` : null,
    artwork_url: ready && v.artworkKey ? `/images/${v.artworkKey}` : null,
    created_at: v.createdAt.toISOString(),
  };
}

export type VersionView = ReturnType<typeof versionView>;

export function trackSummaryView(t: TrackSummary) {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    visibility: t.visibility,
    owner_user_id: t.ownerUserId,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** The version a track shows: its current one, else its newest ready one. */
export function shownVersion(track: TrackSummary, versions: VersionRecord[]): VersionRecord | undefined {
  return (
    versions.find((v) => v.id === track.currentVersionId && v.status === 'ready') ??
    versions.find((v) => v.status === 'ready')
  );
}

/** A version without a cover keeps the track's: the newest ready version's that has one. */
function coverOf(current: VersionRecord, versions: VersionRecord[]): string | null {
  const withCover =
    current.artworkKey !== null
      ? current
      : versions.find((v) => v.status === 'ready' && v.artworkKey !== null);
  return withCover?.artworkKey ? `/images/${withCover.artworkKey}` : null;
}

export function trackView(
  track: TrackSummary,
  versions: VersionRecord[],
  signer: MediaSigner,
  detail: boolean,
) {
  const current = shownVersion(track, versions);
  const newest = versions[0];
  const pending = newest && newest.status !== 'ready' && newest !== current ? newest : undefined;
  const tagged = current ?? newest;
  return {
    ...trackSummaryView(track),
    tags: tagged ? tagsOf(tagged) : null,
    current_version: current
      ? { ...versionView(current, signer, detail), artwork_url: coverOf(current, versions) }
      : null,
    processing: pending
      ? {
          version_id: pending.id,
          number: pending.number,
          status: pending.status,
          error: detail ? pending.error : null,
        }
      : null,
  };
}
