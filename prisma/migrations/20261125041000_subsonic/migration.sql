-- OpenSubsonic API (docs/subsonic.md): client keys, the library view, per-user song state.

-- Client keys: the key itself is kept AES-256-GCM encrypted (token auth needs it), key_hash
-- (HMAC-SHA-256 under CLIENT_KEY_SECRET) finds it for apiKey authentication.
CREATE TABLE "client_keys" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "prefix" VARCHAR(12) NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "key_ciphertext" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "client_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "client_keys_key_hash_key" ON "client_keys"("key_hash");
CREATE INDEX "client_keys_user_id_idx" ON "client_keys"("user_id");
ALTER TABLE "client_keys" ADD CONSTRAINT "client_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Artist and album of a version as Subsonic groups them: album artist first, then artist,
-- untagged files fall back to "[Unknown Artist]" / "[Unknown Album]" as Navidrome does. The ids
-- are hashes of the lower-cased names, so they survive new versions and re-tagging to the same name.
ALTER TABLE "track_versions"
  ADD COLUMN "sub_artist" TEXT GENERATED ALWAYS AS (
    COALESCE(NULLIF(btrim("tag_album_artist"), ''), NULLIF(btrim("tag_artist"), ''), '[Unknown Artist]')) STORED,
  ADD COLUMN "sub_album" TEXT GENERATED ALWAYS AS (
    COALESCE(NULLIF(btrim("tag_album"), ''), '[Unknown Album]')) STORED,
  ADD COLUMN "sub_artist_id" TEXT GENERATED ALWAYS AS (
    'ar-' || left(md5(lower(COALESCE(NULLIF(btrim("tag_album_artist"), ''), NULLIF(btrim("tag_artist"), ''), '[Unknown Artist]'))), 24)) STORED,
  ADD COLUMN "sub_album_id" TEXT GENERATED ALWAYS AS (
    'al-' || left(md5(lower(COALESCE(NULLIF(btrim("tag_album_artist"), ''), NULLIF(btrim("tag_artist"), ''), '[Unknown Artist]'))
      || chr(31) || lower(COALESCE(NULLIF(btrim("tag_album"), ''), '[Unknown Album]'))), 24)) STORED,
  ADD COLUMN "sub_search" TSVECTOR GENERATED ALWAYS AS (
    to_tsvector('simple'::regconfig, COALESCE("tag_title", '') || ' ' || COALESCE("tag_artist", '') || ' '
      || COALESCE("tag_album_artist", '') || ' ' || COALESCE("tag_album", ''))) STORED;

CREATE INDEX "track_versions_sub_search_idx" ON "track_versions" USING GIN ("sub_search");
CREATE INDEX "track_versions_sub_album_id_idx" ON "track_versions"("sub_album_id");
CREATE INDEX "track_versions_sub_artist_id_idx" ON "track_versions"("sub_artist_id");
CREATE INDEX "track_versions_tag_genre_idx" ON "track_versions"("tag_genre");
-- The track's own title is the song title of untagged files: searchable too.
CREATE INDEX "tracks_title_search_idx" ON "tracks" USING GIN (to_tsvector('simple'::regconfig, "title"));
CREATE INDEX "tracks_visibility_created_idx" ON "tracks"("visibility", "created_at" DESC);

-- Songs as the Subsonic API sees them: each track's current version once it is ready.
CREATE VIEW "subsonic_songs" AS
SELECT t.id, t.owner_user_id, t.visibility, t.created_at,
       COALESCE(NULLIF(btrim(v.tag_title), ''), t.title) AS title,
       COALESCE(NULLIF(btrim(v.tag_artist), ''), v.sub_artist) AS artist,
       v.sub_artist AS album_artist, v.sub_album AS album, v.sub_artist_id AS artist_id,
       v.sub_album_id AS album_id, v.tag_genre AS genre, v.tag_year AS year,
       v.tag_track_number AS track_number, v.tag_disc_number AS disc_number,
       v.mb_recording_id, v.mb_album_id, v.mb_album_artist_id,
       v.id AS version_id, v.duration_ms, v.bit_rate, v.sample_rate, v.channels, v.codec,
       v.replay_gain, v.true_peak, v.artwork_key, v.progressive_key, v.hls_key,
       a.id AS asset_id, a.object_key, a.size, a.filename, a.content_type
FROM tracks t
JOIN track_versions v ON v.id = t.current_version_id AND v.status = 'ready'
JOIN assets a ON a.id = v.asset_id;

-- Per-user state of songs, albums and artists (ids are the Subsonic ids).
CREATE TABLE "subsonic_stars" (
    "user_id" UUID NOT NULL,
    "item_id" VARCHAR(40) NOT NULL,
    "kind" VARCHAR(8) NOT NULL CHECK ("kind" IN ('song', 'album', 'artist')),
    "starred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "subsonic_stars_pkey" PRIMARY KEY ("user_id", "item_id")
);
ALTER TABLE "subsonic_stars" ADD CONSTRAINT "subsonic_stars_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "subsonic_ratings" (
    "user_id" UUID NOT NULL,
    "item_id" VARCHAR(40) NOT NULL,
    "rating" SMALLINT NOT NULL CHECK ("rating" BETWEEN 1 AND 5),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "subsonic_ratings_pkey" PRIMARY KEY ("user_id", "item_id")
);
ALTER TABLE "subsonic_ratings" ADD CONSTRAINT "subsonic_ratings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "playlists" (
    "id" UUID NOT NULL,
    "owner_user_id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "comment" VARCHAR(2000) NOT NULL DEFAULT '',
    "public" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "playlists_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "playlists_owner_user_id_idx" ON "playlists"("owner_user_id");
ALTER TABLE "playlists" ADD CONSTRAINT "playlists_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "playlist_entries" (
    "playlist_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "track_id" UUID NOT NULL,
    CONSTRAINT "playlist_entries_pkey" PRIMARY KEY ("playlist_id", "position")
);
CREATE INDEX "playlist_entries_track_id_idx" ON "playlist_entries"("track_id");
ALTER TABLE "playlist_entries" ADD CONSTRAINT "playlist_entries_playlist_id_fkey" FOREIGN KEY ("playlist_id") REFERENCES "playlists"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "playlist_entries" ADD CONSTRAINT "playlist_entries_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "bookmarks" (
    "user_id" UUID NOT NULL,
    "track_id" UUID NOT NULL,
    "position_ms" BIGINT NOT NULL,
    "comment" VARCHAR(2000) NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "bookmarks_pkey" PRIMARY KEY ("user_id", "track_id")
);
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "play_queues" (
    "user_id" UUID NOT NULL,
    "track_ids" UUID[] NOT NULL,
    "current_index" INTEGER,
    "position_ms" BIGINT NOT NULL DEFAULT 0,
    "changed_by" VARCHAR(200) NOT NULL DEFAULT '',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "play_queues_pkey" PRIMARY KEY ("user_id")
);
ALTER TABLE "play_queues" ADD CONSTRAINT "play_queues_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
