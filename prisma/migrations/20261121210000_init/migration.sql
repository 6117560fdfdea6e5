-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('user', 'admin');

-- CreateEnum
CREATE TYPE "Visibility" AS ENUM ('public', 'unlisted', 'private');

-- CreateEnum
CREATE TYPE "VersionStatus" AS ENUM ('pending', 'processing', 'ready', 'failed');

-- CreateEnum
CREATE TYPE "AssetStatus" AS ENUM ('uploading', 'uploaded', 'aborted');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "handle" VARCHAR(30) NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'user',
    "display_name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tracks" (
    "id" UUID NOT NULL,
    "title" VARCHAR(200) NOT NULL,
    "owner_user_id" UUID NOT NULL,
    "description" VARCHAR(5000) NOT NULL DEFAULT '',
    "visibility" "Visibility" NOT NULL DEFAULT 'public',
    "current_version_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tracks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "track_versions" (
    "id" UUID NOT NULL,
    "track_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "asset_id" UUID NOT NULL,
    "status" "VersionStatus" NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "duration_ms" INTEGER,
    "loudness_integrated" DOUBLE PRECISION,
    "loudness_range" DOUBLE PRECISION,
    "true_peak" DOUBLE PRECISION,
    "replay_gain" DOUBLE PRECISION,
    "hls_key" TEXT,
    "progressive_key" TEXT,
    "waveform_key" TEXT,
    "artwork_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "track_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assets" (
    "id" UUID NOT NULL,
    "owner_user_id" UUID NOT NULL,
    "object_key" TEXT NOT NULL,
    "filename" VARCHAR(255) NOT NULL,
    "content_type" VARCHAR(127) NOT NULL,
    "size" BIGINT NOT NULL,
    "sha256" CHAR(64),
    "status" "AssetStatus" NOT NULL DEFAULT 'uploading',
    "multipart_upload_id" TEXT,
    "part_size" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comments" (
    "id" UUID NOT NULL,
    "track_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "body" VARCHAR(2000) NOT NULL,
    "position_ms" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "play_events" (
    "id" BIGSERIAL NOT NULL,
    "track_id" UUID NOT NULL,
    "version_id" UUID NOT NULL,
    "listener_hash" CHAR(64) NOT NULL,
    "position_ms" INTEGER,
    "day" DATE NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "play_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "track_daily_stats" (
    "track_id" UUID NOT NULL,
    "version_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "plays" INTEGER NOT NULL DEFAULT 0,
    "unique_listeners" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "track_daily_stats_pkey" PRIMARY KEY ("track_id","version_id","day")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_handle_key" ON "users"("handle");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "tracks_current_version_id_key" ON "tracks"("current_version_id");

-- CreateIndex
CREATE INDEX "tracks_owner_user_id_created_at_id_idx" ON "tracks"("owner_user_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "track_versions_asset_id_idx" ON "track_versions"("asset_id");

-- CreateIndex
CREATE UNIQUE INDEX "track_versions_track_id_number_key" ON "track_versions"("track_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "assets_object_key_key" ON "assets"("object_key");

-- CreateIndex
CREATE INDEX "assets_owner_user_id_status_idx" ON "assets"("owner_user_id", "status");

-- CreateIndex
CREATE INDEX "comments_track_id_created_at_id_idx" ON "comments"("track_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "play_events_occurred_at_idx" ON "play_events"("occurred_at");

-- CreateIndex
CREATE INDEX "play_events_track_id_day_idx" ON "play_events"("track_id", "day");

-- CreateIndex
CREATE INDEX "track_daily_stats_day_idx" ON "track_daily_stats"("day");

-- AddForeignKey
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_current_version_id_fkey" FOREIGN KEY ("current_version_id") REFERENCES "track_versions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "track_versions" ADD CONSTRAINT "track_versions_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "track_versions" ADD CONSTRAINT "track_versions_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "play_events" ADD CONSTRAINT "play_events_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "play_events" ADD CONSTRAINT "play_events_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "track_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "track_daily_stats" ADD CONSTRAINT "track_daily_stats_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "track_daily_stats" ADD CONSTRAINT "track_daily_stats_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "track_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written (Prisma has no syntax for CHECK constraints): the database itself refuses
-- handles outside the design's pattern and mixed-case emails, so the unique indexes above are
-- case-insensitive whatever code writes to the table.
ALTER TABLE "users" ADD CONSTRAINT "users_handle_format" CHECK ("handle" ~ '^[a-z0-9_]{3,30}$');
ALTER TABLE "users" ADD CONSTRAINT "users_email_lower" CHECK ("email" = lower("email"));
ALTER TABLE "comments" ADD CONSTRAINT "comments_body_length" CHECK (char_length("body") BETWEEN 1 AND 2000);
ALTER TABLE "track_versions" ADD CONSTRAINT "track_versions_number_positive" CHECK ("number" >= 1);
ALTER TABLE "assets" ADD CONSTRAINT "assets_size_nonnegative" CHECK ("size" >= 0);
