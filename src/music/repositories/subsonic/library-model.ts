/**
 * What the Subsonic library answers: its rows (songs of the `subsonic_songs` view, albums and
 * artists grouped from them), the caller as a viewer with a music folder, and search words.
 */
import type { Role } from '../../auth-context.js';

export const FOLDER_EVERYONE = 1;
export const FOLDER_MINE = 2;

export interface Viewer {
  userId: string;
  role?: Role;
  /** undefined: every folder the caller can see (= "Everyone"). */
  folder?: number;
}

export interface SongRow {
  id: string;
  owner_user_id: string;
  /** The owner's handle and display name (the web player's lists link the artist's profile). */
  owner_handle: string;
  owner_name: string;
  visibility: string;
  /** ISO 8601 text, as the answers write it (made by PostgreSQL: no Date per row). */
  created_at: string;
  title: string;
  artist: string;
  album_artist: string;
  album: string;
  artist_id: string;
  album_id: string;
  genre: string | null;
  year: number | null;
  track_number: number | null;
  disc_number: number | null;
  mb_recording_id: string | null;
  version_id: string;
  duration_ms: number | null;
  bit_rate: number | null;
  sample_rate: number | null;
  channels: number | null;
  codec: string | null;
  replay_gain: number | null;
  true_peak: number | null;
  artwork_key: string | null;
  progressive_key: string | null;
  hls_key: string | null;
  object_key: string;
  size: number;
  filename: string;
  content_type: string;
  starred_at: string | null;
  rating: number | null;
}

export interface AlbumRow {
  id: string;
  name: string;
  artist: string;
  artist_id: string;
  song_count: number;
  duration_ms: number;
  created: string;
  year: number | null;
  genre: string | null;
  cover_song: string | null;
  starred_at: string | null;
  rating: number | null;
}

export interface ArtistRow {
  id: string;
  name: string;
  album_count: number;
  cover_song: string | null;
  starred_at: string | null;
}

export type AlbumOrder =
  | 'random'
  | 'newest'
  | 'highest'
  | 'frequent'
  | 'recent'
  | 'alphabeticalByName'
  | 'alphabeticalByArtist'
  | 'starred'
  | 'byYear'
  | 'byGenre';

export interface AlbumListQuery {
  type: AlbumOrder;
  size: number;
  offset: number;
  fromYear?: number;
  toYear?: number;
  genre?: string;
}

/** subsonic_artists' viewer for the public summary rows; also a viewer who owns nothing. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Tokens of a search as a prefix tsquery ("nois so" -> nois:* & so:*); undefined when empty. */
export function prefixQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length === 0
    ? undefined
    : words
        .slice(0, 16)
        .map((w) => `${w}:*`)
        .join(' & ');
}
