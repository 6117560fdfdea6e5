-- The library's GIN indexes without a pending list (docs/subsonic.md, "Search"): rows come from the
-- library triggers a few at a time, and with fastupdate each search also read every entry still
-- pending (until a vacuum merges them): search3's album search for an absent word took 0.064 ms
-- at 10,000 songs with the 10 pending pages the seed left, 0.008 ms with none (EXPLAIN ANALYZE),
-- and 2-5 ms at 100,000 songs. Writes go into the index at once instead.
ALTER INDEX "subsonic_album_parts_search_idx" SET (fastupdate = off);
ALTER INDEX "subsonic_album_parts_artist_search_idx" SET (fastupdate = off);
ALTER INDEX "subsonic_artists_search_idx" SET (fastupdate = off);
ALTER INDEX "subsonic_song_search_search_idx" SET (fastupdate = off);
ALTER INDEX "subsonic_song_search_title_search_idx" SET (fastupdate = off);
-- Turning fastupdate off keeps what is pending already: merge it now.
SELECT gin_clean_pending_list(i::regclass) FROM unnest(ARRAY[
  'subsonic_album_parts_search_idx', 'subsonic_album_parts_artist_search_idx', 'subsonic_artists_search_idx',
  'subsonic_song_search_search_idx', 'subsonic_song_search_title_search_idx']) AS i;
