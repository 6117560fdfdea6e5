-- A comment's position is a time in one version: the version it was made on is kept beside it,
-- so a later (shorter or longer) version draws only its own comments. Comments made before this
-- migration keep NULL (their version is unknown).
ALTER TABLE "comments" ADD COLUMN "version_id" UUID;
ALTER TABLE "comments" ADD CONSTRAINT "comments_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "track_versions"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "comments" ADD COLUMN "edited_at" TIMESTAMPTZ(3);
