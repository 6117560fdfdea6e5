-- Tags and technical facts of an original, read by ffprobe when its upload completes:
-- kept whole on the asset (probe), copied into typed columns of each version made from it.
ALTER TABLE "assets" ADD COLUMN "probe" JSONB, ADD COLUMN "upload_id" UUID;
-- The id clients address an unfinished upload by (the store's own id is not exposed).
CREATE UNIQUE INDEX "assets_upload_id_key" ON "assets"("upload_id");

ALTER TABLE "track_versions"
  ADD COLUMN "codec" VARCHAR(64),
  ADD COLUMN "bit_rate" INTEGER,
  ADD COLUMN "channels" INTEGER,
  ADD COLUMN "sample_rate" INTEGER,
  ADD COLUMN "tag_title" VARCHAR(500),
  ADD COLUMN "tag_artist" VARCHAR(500),
  ADD COLUMN "tag_album_artist" VARCHAR(500),
  ADD COLUMN "tag_album" VARCHAR(500),
  ADD COLUMN "tag_genre" VARCHAR(200),
  ADD COLUMN "tag_track_number" INTEGER,
  ADD COLUMN "tag_disc_number" INTEGER,
  ADD COLUMN "tag_year" INTEGER,
  ADD COLUMN "tag_date" VARCHAR(32),
  ADD COLUMN "mb_recording_id" UUID,
  ADD COLUMN "mb_track_id" UUID,
  ADD COLUMN "mb_album_id" UUID,
  ADD COLUMN "mb_artist_id" UUID,
  ADD COLUMN "mb_album_artist_id" UUID;

-- upload-cleanup finds unfinished uploads by age.
CREATE INDEX "assets_status_created_at_idx" ON "assets"("status", "created_at");
