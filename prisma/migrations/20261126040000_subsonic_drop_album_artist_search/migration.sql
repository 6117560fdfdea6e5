-- Album parts' artist_search and its GIN index were never read: search3 finds artists in
-- subsonic_artists (20261126020000) and albums by subsonic_album_parts.search. Dropped so every
-- library change stops computing a tsvector and writing a GIN entry for nothing.
DROP INDEX IF EXISTS "subsonic_album_parts_artist_search_idx";
ALTER TABLE "subsonic_album_parts" DROP COLUMN IF EXISTS "artist_search";
