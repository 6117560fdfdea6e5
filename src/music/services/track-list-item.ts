/**
 * One item of every track list the player shows (new uploads, search, artist, album, a playlist):
 * the song's own fields as before, plus the shapes the player's lists play from (docs/music-domain.md,
 * "Track lists"). Covers are answered by /images/ (one rule for stored bytes: media-delivery.ts).
 */
import type { SongRow } from '../repositories/subsonic/library-model.js';

/** Where a stored image (a cover, a profile picture) is served from, or null without one. */
export const imageUrl = (key: string | null): string | null => (key ? `/images/${key}` : null);

/** Whole seconds of a duration in milliseconds (a list shows m:ss), null when unknown. */
export const durationSeconds = (ms: number | null): number | null =>
  ms === null ? null : Math.round(ms / 1000);

export function trackListItem(s: SongRow) {
  return {
    id: s.id,
    title: s.title,
    artist: s.artist,
    artist_id: s.artist_id,
    album: s.album,
    album_id: s.album_id,
    year: s.year,
    genre: s.genre,
    track_number: s.track_number,
    duration_ms: s.duration_ms,
    created_at: s.created_at,
    artwork_url: imageUrl(s.artwork_key),
    owner: { handle: s.owner_handle, display_name: s.owner_name },
    artist_ref: { id: s.artist_id, name: s.artist, handle: s.owner_handle },
    album_ref: { id: s.album_id, title: s.album },
    duration_seconds: durationSeconds(s.duration_ms),
    cover_url: imageUrl(s.artwork_key),
  };
}
