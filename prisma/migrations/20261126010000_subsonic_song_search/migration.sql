-- Song search at 10,000-100,000 songs (docs/subsonic.md, "Search"): one narrow row per song
-- (a track whose current version is ready), with its lower-cased title and both search vectors,
-- kept by the library triggers. A page of matches is then chosen on this table alone, either in
-- title order from its btree index (a common word: the first matches come early) or through its
-- GIN indexes and a top-N sort (a rare word), whichever the planner finds cheaper for the words.
CREATE TABLE "subsonic_song_search" (
    "track_id" UUID NOT NULL,
    "owner_user_id" UUID NOT NULL,
    "public" BOOLEAN NOT NULL,
    -- lower(song title): the order of search3's song list.
    "title_key" TEXT NOT NULL,
    -- The version's tags (track_versions.sub_search) and the track's own title (untagged files).
    "search" TSVECTOR NOT NULL,
    "title_search" TSVECTOR NOT NULL,
    CONSTRAINT "subsonic_song_search_pkey" PRIMARY KEY ("track_id")
);
CREATE INDEX "subsonic_song_search_title_idx" ON "subsonic_song_search"("title_key", "track_id");
CREATE INDEX "subsonic_song_search_owner_title_idx" ON "subsonic_song_search"("owner_user_id", "title_key", "track_id");
CREATE INDEX "subsonic_song_search_search_idx" ON "subsonic_song_search" USING GIN ("search");
CREATE INDEX "subsonic_song_search_title_search_idx" ON "subsonic_song_search" USING GIN ("title_search");

-- getAlbumList2 newest reads album parts in this order and stops after the page's albums
-- (library-repository.ts, newestAlbums) instead of grouping every album.
CREATE INDEX "subsonic_album_parts_created_idx" ON "subsonic_album_parts"("created" DESC, "album_id");
CREATE INDEX "subsonic_album_parts_owner_created_idx" ON "subsonic_album_parts"("owner_user_id", "created" DESC, "album_id");

-- Recomputes the rows of these tracks from the songs view, serialised per track hash bucket
-- (advisory locks of class 25, taken in order) like the album refresh, so two transactions
-- changing one song cannot both insert it.
CREATE FUNCTION "subsonic_refresh_songs"(ids UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(25, b)
    FROM (SELECT DISTINCT abs(hashtext(i::text)) % 256 AS b FROM unnest(ids) AS i ORDER BY 1) AS buckets;
  DELETE FROM "subsonic_song_search" WHERE "track_id" = ANY(ids);
  INSERT INTO "subsonic_song_search" ("track_id", "owner_user_id", "public", "title_key", "search", "title_search")
  SELECT s.id, s.owner_user_id, s.visibility = 'public', lower(s.title), v.sub_search,
         to_tsvector('simple'::regconfig, t.title)
  FROM "subsonic_songs" s
  JOIN track_versions v ON v.id = s.version_id
  JOIN tracks t ON t.id = s.id
  WHERE s.id = ANY(ids);
END $$;

-- Tracks: as before for albums; songs also follow a change of title (the untagged fallback).
CREATE OR REPLACE FUNCTION "subsonic_tracks_library"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "subsonic_refresh_albums"(ARRAY(
      SELECT DISTINCT v.sub_album_id FROM new_rows n JOIN track_versions v ON v.id = n.current_version_id));
    PERFORM "subsonic_refresh_songs"(ARRAY(SELECT n.id FROM new_rows n WHERE n.current_version_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "subsonic_refresh_albums"(ARRAY(
      SELECT DISTINCT v.sub_album_id FROM old_rows o JOIN track_versions v ON v.id = o.current_version_id));
    PERFORM "subsonic_refresh_songs"(ARRAY(SELECT o.id FROM old_rows o));
  ELSE
    PERFORM "subsonic_refresh_albums"(ARRAY(
      SELECT DISTINCT v.sub_album_id
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      JOIN track_versions v ON v.id IN (o.current_version_id, n.current_version_id)
      WHERE o.current_version_id IS DISTINCT FROM n.current_version_id OR o.visibility <> n.visibility
         OR o.owner_user_id <> n.owner_user_id OR o.created_at <> n.created_at));
    PERFORM "subsonic_refresh_songs"(ARRAY(
      SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.current_version_id IS DISTINCT FROM n.current_version_id OR o.visibility <> n.visibility
         OR o.owner_user_id <> n.owner_user_id OR o.title <> n.title));
  END IF;
  RETURN NULL;
END $$;

-- Versions: as before for albums; a current version's songs follow its status and searched tags.
CREATE OR REPLACE FUNCTION "subsonic_versions_library"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM "subsonic_refresh_albums"(ARRAY(SELECT DISTINCT o.sub_album_id FROM old_rows o));
    -- A deleted current version clears tracks.current_version_id (ON DELETE SET NULL), whose
    -- update trigger refreshes the song.
  ELSE
    PERFORM "subsonic_refresh_albums"(ARRAY(
      SELECT DISTINCT a FROM old_rows o JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.sub_album_id), (n.sub_album_id)) AS x(a)
      WHERE (o.status, o.sub_album_id, o.sub_artist, o.sub_album, o.tag_title, o.tag_genre, o.tag_year,
             o.tag_track_number, o.tag_disc_number, o.duration_ms, o.artwork_key)
            IS DISTINCT FROM
            (n.status, n.sub_album_id, n.sub_artist, n.sub_album, n.tag_title, n.tag_genre, n.tag_year,
             n.tag_track_number, n.tag_disc_number, n.duration_ms, n.artwork_key)
        AND EXISTS (SELECT 1 FROM tracks t WHERE t.current_version_id = n.id)));
    PERFORM "subsonic_refresh_songs"(ARRAY(
      SELECT t.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      JOIN tracks t ON t.current_version_id = n.id
      WHERE (o.status, o.tag_title, o.sub_search) IS DISTINCT FROM (n.status, n.tag_title, n.sub_search)));
  END IF;
  RETURN NULL;
END $$;

-- Songs that exist already.
SELECT "subsonic_refresh_songs"(ARRAY(SELECT id FROM "subsonic_songs"));

-- One page of song ids for search3, in title order: the page query is planned with the words on
-- each call (EXECUTE), so a common word reads the title index in order and a rare one the GIN
-- indexes, while the statement that joins the page to the songs view stays prepared (planned once).
-- words NULL lists every song; mine: the viewer's own songs only (music folder 2).
CREATE FUNCTION "subsonic_search_songs"(words TSQUERY, viewer UUID, mine BOOLEAN, lim INTEGER, skip INTEGER)
RETURNS SETOF UUID LANGUAGE plpgsql STABLE ROWS 20 AS $$
BEGIN
  RETURN QUERY EXECUTE format(
    'SELECT x.track_id FROM "subsonic_song_search" x WHERE %s AND %s ORDER BY x.title_key, x.track_id LIMIT $3 OFFSET $4',
    CASE WHEN words IS NULL THEN 'true' ELSE '(x.search @@ $1 OR x.title_search @@ $1)' END,
    CASE WHEN mine THEN 'x.owner_user_id = $2' ELSE '(x.public OR x.owner_user_id = $2)' END)
  USING words, viewer, lim, skip;
END $$;
