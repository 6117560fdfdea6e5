-- Library import (docs/library-import.md): each run, the files it could not import, and the
-- state of every imported file (resume, re-run, prune).
CREATE TABLE "library_imports" (
    "id" UUID NOT NULL,
    "owner_user_id" UUID NOT NULL,
    "requested_by" UUID,
    "root" TEXT NOT NULL,
    "visibility" "Visibility" NOT NULL DEFAULT 'public',
    "prune" BOOLEAN NOT NULL DEFAULT false,
    "status" VARCHAR(16) NOT NULL DEFAULT 'queued',
    "scanned" INTEGER NOT NULL DEFAULT 0,
    "imported" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "missing" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "runner" UUID,
    "heartbeat_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "library_imports_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "library_imports_owner_user_id_root_created_at_idx" ON "library_imports"("owner_user_id", "root", "created_at" DESC);
ALTER TABLE "library_imports" ADD CONSTRAINT "library_imports_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "library_import_problems" (
    "id" BIGSERIAL NOT NULL,
    "import_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "reason" TEXT NOT NULL,
    CONSTRAINT "library_import_problems_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "library_import_problems_import_id_path_key" ON "library_import_problems"("import_id", "path");
ALTER TABLE "library_import_problems" ADD CONSTRAINT "library_import_problems_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "library_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "library_files" (
    "id" UUID NOT NULL,
    "owner_user_id" UUID NOT NULL,
    "root" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "mtime_ms" DOUBLE PRECISION NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "cover_sha256" CHAR(64),
    "embedded_cover" BOOLEAN NOT NULL,
    "track_id" UUID,
    "version_id" UUID,
    "seen_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "library_files_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "library_files_owner_user_id_root_path_key" ON "library_files"("owner_user_id", "root", "path");
CREATE INDEX "library_files_owner_user_id_sha256_idx" ON "library_files"("owner_user_id", "sha256");
CREATE INDEX "library_files_track_id_idx" ON "library_files"("track_id");
ALTER TABLE "library_files" ADD CONSTRAINT "library_files_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "library_files" ADD CONSTRAINT "library_files_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE INDEX "assets_owner_user_id_sha256_idx" ON "assets"("owner_user_id", "sha256");
