-- An upload backs at most one version (docs/music-domain.md): a version made from an upload by
-- POST /tracks/:id/versions is marked, and no two marked versions share an asset. The library
-- import's versions are not marked: a file that changes back to content the owner already has
-- reuses that content's asset (its object key is the content's hash).
ALTER TABLE "track_versions" ADD COLUMN "from_upload" BOOLEAN NOT NULL DEFAULT false;

-- Partial: schema.prisma cannot express it (as purchases_one_open_sale).
CREATE UNIQUE INDEX "track_versions_one_per_upload" ON "track_versions" ("asset_id") WHERE "from_upload";

-- An owner's versions from uploads still waiting for or in the media pipeline, counted on each add.
CREATE INDEX "track_versions_uploads_in_flight" ON "track_versions" ("track_id")
  WHERE "from_upload" AND "status" IN ('pending', 'processing');
