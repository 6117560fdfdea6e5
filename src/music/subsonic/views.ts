/** Library rows as Subsonic elements (Child, AlbumID3, ArtistID3, Playlist) with OpenSubsonic fields. */
import { extname } from 'node:path';
import { chooseLadder } from '../ffmpeg-commands/ladder.js';
import type { AlbumRow, ArtistRow, SongRow } from '../repositories/subsonic/library-model.js';

/** The rendition `stream` serves by default: the top rung of the HLS ladder (AAC in MP4). */
export function topRungKbps(song: Pick<SongRow, 'channels' | 'bit_rate'>): number {
  const ladder = chooseLadder({ channels: song.channels ?? 2, bitRate: song.bit_rate ?? undefined });
  return Math.round((ladder[ladder.length - 1]?.bitRate ?? 128_000) / 1000);
}

/**
 * The measured loudness for players that apply gain themselves: ReplayGain 2.0 track gain
 * (-18 LUFS reference) and the true peak as a linear amplitude. Renditions are not gain-adjusted.
 */
function replayGain(s: SongRow): Record<string, number> {
  const out: Record<string, number> = {};
  if (s.replay_gain !== null) out.trackGain = s.replay_gain;
  if (s.true_peak !== null) out.trackPeak = Number((10 ** (s.true_peak / 20)).toFixed(6));
  return out;
}

const seconds = (ms: number | null): number => Math.round((ms ?? 0) / 1000);

export function songView(s: SongRow) {
  const suffix = extname(s.filename).slice(1).toLowerCase() || (s.codec ?? 'bin');
  return {
    id: s.id,
    parent: s.album_id,
    isDir: false,
    title: s.title,
    album: s.album,
    artist: s.artist,
    track: s.track_number ?? undefined,
    year: s.year ?? undefined,
    genre: s.genre ?? undefined,
    coverArt: s.artwork_key ? s.id : undefined,
    size: Number(s.size),
    contentType: s.content_type,
    suffix,
    transcodedContentType: 'audio/mp4',
    transcodedSuffix: 'm4a',
    duration: seconds(s.duration_ms),
    bitRate: s.bit_rate ? Math.round(s.bit_rate / 1000) : undefined,
    samplingRate: s.sample_rate ?? undefined,
    channelCount: s.channels ?? undefined,
    path: `${s.album_artist}/${s.album}/${s.title}.${suffix}`.replace(/[\\:*?"<>|]/g, '_'),
    isVideo: false,
    userRating: s.rating ?? undefined,
    discNumber: s.disc_number ?? undefined,
    created: s.created_at,
    starred: s.starred_at ?? undefined,
    albumId: s.album_id,
    artistId: s.artist_id,
    type: 'music',
    mediaType: 'song',
    musicBrainzId: s.mb_recording_id ?? '',
    genres: s.genre ? [{ name: s.genre }] : [],
    artists: [{ id: s.artist_id, name: s.artist }],
    displayArtist: s.artist,
    albumArtists: [{ id: s.artist_id, name: s.album_artist }],
    displayAlbumArtist: s.album_artist,
    replayGain: replayGain(s),
  };
}

export function albumView(a: AlbumRow) {
  return {
    id: a.id,
    name: a.name,
    artist: a.artist,
    artistId: a.artist_id,
    coverArt: a.cover_song ? a.id : undefined,
    songCount: a.song_count,
    duration: seconds(a.duration_ms),
    created: a.created,
    year: a.year ?? undefined,
    genre: a.genre ?? undefined,
    starred: a.starred_at ?? undefined,
    userRating: a.rating ?? undefined,
    genres: a.genre ? [{ name: a.genre }] : [],
    artists: [{ id: a.artist_id, name: a.artist }],
    displayArtist: a.artist,
    sortName: a.name.toLowerCase(),
  };
}

/** getAlbumList (the folder-based list) shows albums as directories. */
export function albumDirectoryView(a: AlbumRow) {
  return {
    id: a.id,
    parent: a.artist_id,
    isDir: true,
    title: a.name,
    album: a.name,
    artist: a.artist,
    year: a.year ?? undefined,
    genre: a.genre ?? undefined,
    coverArt: a.cover_song ? a.id : undefined,
    created: a.created,
    starred: a.starred_at ?? undefined,
    userRating: a.rating ?? undefined,
  };
}

export function artistView(a: ArtistRow) {
  return {
    id: a.id,
    name: a.name,
    coverArt: a.cover_song ? a.id : undefined,
    albumCount: a.album_count,
    starred: a.starred_at ?? undefined,
    sortName: a.name.toLowerCase(),
  };
}

/** The index letter of a name: its first letter or digit, upper-cased; "#" otherwise. */
export function indexLetter(name: string): string {
  const first = name.match(/[\p{L}\p{N}]/u)?.[0];
  if (!first) return '#';
  return /\p{N}/u.test(first) ? '#' : first.toLocaleUpperCase();
}

export function byIndex<T extends { name: string }>(items: T[]): { name: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = indexLetter(item.name);
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  return [...groups.entries()].map(([name, list]) => ({ name, items: list }));
}
