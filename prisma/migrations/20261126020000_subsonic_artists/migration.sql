-- getArtists at 10,000-100,000 songs (docs/subsonic.md, "Artists"): artists kept materialised
-- from subsonic_album_parts, refreshed with the albums they hold, so a caller's artist list reads
-- one public row and at most one own row an artist instead of grouping every album part.
-- viewer = the nil UUID: the public summary (albums with a public part, counted once however many
-- owners share them); viewer = a user: that user's albums (album_count, folder "Mine") and how many
-- of them have no public part (extra_count, added to the public count for folder "Everyone").
CREATE TABLE "subsonic_artists" (
    "artist_id" TEXT NOT NULL,
    "viewer" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "album_count" INTEGER NOT NULL,
    "extra_count" INTEGER NOT NULL,
    "cover_song" UUID,
    "search" TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "name")) STORED,
    CONSTRAINT "subsonic_artists_pkey" PRIMARY KEY ("viewer", "artist_id")
);
CREATE INDEX "subsonic_artists_artist_id_idx" ON "subsonic_artists"("artist_id");
CREATE INDEX "subsonic_artists_search_idx" ON "subsonic_artists" USING GIN ("search");

-- Recomputes the rows of these artists from their album parts, serialised per artist hash bucket
-- (advisory locks of class 26, taken in order) like the album and song refreshes.
CREATE FUNCTION "subsonic_refresh_artists"(ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(26, b)
    FROM (SELECT DISTINCT abs(hashtext(i)) % 256 AS b FROM unnest(ids) AS i ORDER BY 1) AS buckets;
  DELETE FROM "subsonic_artists" WHERE "artist_id" = ANY(ids);
  INSERT INTO "subsonic_artists" ("artist_id", "viewer", "name", "album_count", "extra_count", "cover_song")
  SELECT p.artist_id, '00000000-0000-0000-0000-000000000000'::uuid, min(p.artist),
         count(DISTINCT p.album_id)::int, 0, min(p.cover_song::text)::uuid
  FROM "subsonic_album_parts" p
  WHERE p.artist_id = ANY(ids) AND p.public
  GROUP BY p.artist_id
  UNION ALL
  SELECT p.artist_id, p.owner_user_id, min(p.artist), count(DISTINCT p.album_id)::int,
         count(DISTINCT p.album_id) FILTER (WHERE NOT EXISTS (
           SELECT 1 FROM "subsonic_album_parts" q WHERE q.album_id = p.album_id AND q.public))::int,
         min(p.cover_song::text)::uuid
  FROM "subsonic_album_parts" p
  WHERE p.artist_id = ANY(ids)
  GROUP BY p.artist_id, p.owner_user_id;
END $$;

-- Albums: as before, then the artists of the parts removed and of the parts written.
CREATE OR REPLACE FUNCTION "subsonic_refresh_albums"(ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  artists TEXT[];
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(24, b)
    FROM (SELECT DISTINCT abs(hashtext(i)) % 256 AS b FROM unnest(ids) AS i ORDER BY 1) AS buckets;
  artists := ARRAY(SELECT DISTINCT p.artist_id FROM "subsonic_album_parts" p WHERE p.album_id = ANY(ids));
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
  PERFORM "subsonic_refresh_artists"(ARRAY(
    SELECT unnest(artists)
    UNION SELECT p.artist_id FROM "subsonic_album_parts" p WHERE p.album_id = ANY(ids)));
END $$;

-- Libraries that exist already.
SELECT "subsonic_refresh_artists"(ARRAY(SELECT DISTINCT artist_id FROM "subsonic_album_parts"));
