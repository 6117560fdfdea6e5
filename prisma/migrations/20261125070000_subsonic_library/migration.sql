-- Subsonic library at 10,000-100,000 songs (docs/subsonic.md, "Performance"): albums are kept
-- materialised in subsonic_album_parts, maintained by triggers whenever a version becomes ready,
-- its tags change, a track changes visibility or current version, or either is deleted, so
-- album lists, getArtists and album/artist search read a few thousand small rows through indexes
-- instead of grouping every song of the view on each request.

-- One row per album and (owner, public): a caller sees the public parts and their own, summed.
CREATE TABLE "subsonic_album_parts" (
    "album_id" TEXT NOT NULL,
    "owner_user_id" UUID NOT NULL,
    "public" BOOLEAN NOT NULL,
    "name" TEXT NOT NULL,
    "artist" TEXT NOT NULL,
    "artist_id" TEXT NOT NULL,
    "song_count" INTEGER NOT NULL,
    "duration_ms" BIGINT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "year" INTEGER,
    "genre" TEXT,
    "cover_song" UUID,
    "search" TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "name" || ' ' || "artist")) STORED,
    "artist_search" TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "artist")) STORED,
    CONSTRAINT "subsonic_album_parts_pkey" PRIMARY KEY ("album_id", "owner_user_id", "public")
);
CREATE INDEX "subsonic_album_parts_public_created_idx" ON "subsonic_album_parts"("public", "created" DESC);
CREATE INDEX "subsonic_album_parts_owner_idx" ON "subsonic_album_parts"("owner_user_id");
CREATE INDEX "subsonic_album_parts_artist_id_idx" ON "subsonic_album_parts"("artist_id");
CREATE INDEX "subsonic_album_parts_genre_idx" ON "subsonic_album_parts"("genre");
CREATE INDEX "subsonic_album_parts_search_idx" ON "subsonic_album_parts" USING GIN ("search");
CREATE INDEX "subsonic_album_parts_artist_search_idx" ON "subsonic_album_parts" USING GIN ("artist_search");
-- Recomputes the parts of these albums from the songs view. Refreshes of one album are
-- serialised (an advisory lock per hash bucket, taken in order) so two transactions changing
-- the same album cannot leave counts that miss the other's change.
CREATE FUNCTION "subsonic_refresh_albums"(ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(24, b)
    FROM (SELECT DISTINCT abs(hashtext(i)) % 256 AS b FROM unnest(ids) AS i ORDER BY 1) AS buckets;
  DELETE FROM "subsonic_album_parts" WHERE "album_id" = ANY(ids);
  INSERT INTO "subsonic_album_parts"
    ("album_id", "owner_user_id", "public", "name", "artist", "artist_id", "song_count", "duration_ms",
     "created", "year", "genre", "cover_song")
  SELECT s.album_id, s.owner_user_id, s.visibility = 'public', min(s.album), min(s.album_artist),
         min(s.artist_id), count(*)::int, coalesce(sum(s.duration_ms), 0), max(s.created_at), min(s.year),
         min(s.genre),
         (array_agg(s.id ORDER BY s.disc_number NULLS FIRST, s.track_number NULLS LAST, s.id)
            FILTER (WHERE s.artwork_key IS NOT NULL))[1]
  FROM "subsonic_songs" s
  WHERE s.album_id = ANY(ids)
  GROUP BY s.album_id, s.owner_user_id, s.visibility = 'public';
END $$;

-- Tracks: a new current version, visibility, owner or creation time moves songs between parts.
CREATE FUNCTION "subsonic_tracks_library"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "subsonic_refresh_albums"(ARRAY(
      SELECT DISTINCT v.sub_album_id FROM new_rows n JOIN track_versions v ON v.id = n.current_version_id));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "subsonic_refresh_albums"(ARRAY(
      SELECT DISTINCT v.sub_album_id FROM old_rows o JOIN track_versions v ON v.id = o.current_version_id));
  ELSE
    PERFORM "subsonic_refresh_albums"(ARRAY(
      SELECT DISTINCT v.sub_album_id
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      JOIN track_versions v ON v.id IN (o.current_version_id, n.current_version_id)
      WHERE o.current_version_id IS DISTINCT FROM n.current_version_id OR o.visibility <> n.visibility
         OR o.owner_user_id <> n.owner_user_id OR o.created_at <> n.created_at));
  END IF;
  RETURN NULL;
END $$;

-- Versions: status (ready), tags, duration or artwork of a current version; a deleted version's album.
CREATE FUNCTION "subsonic_versions_library"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM "subsonic_refresh_albums"(ARRAY(SELECT DISTINCT o.sub_album_id FROM old_rows o));
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
  END IF;
  RETURN NULL;
END $$;

-- Transition tables allow one event per trigger: one statement-level trigger per event.
CREATE TRIGGER "subsonic_tracks_library_insert" AFTER INSERT ON "tracks"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "subsonic_tracks_library"();
CREATE TRIGGER "subsonic_tracks_library_update" AFTER UPDATE ON "tracks"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "subsonic_tracks_library"();
CREATE TRIGGER "subsonic_tracks_library_delete" AFTER DELETE ON "tracks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "subsonic_tracks_library"();
CREATE TRIGGER "subsonic_versions_library_update" AFTER UPDATE ON "track_versions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "subsonic_versions_library"();
CREATE TRIGGER "subsonic_versions_library_delete" AFTER DELETE ON "track_versions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "subsonic_versions_library"();

-- Libraries that exist already.
SELECT "subsonic_refresh_albums"(ARRAY(SELECT DISTINCT album_id FROM "subsonic_songs"));
