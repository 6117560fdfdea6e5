#!/usr/bin/env bash
# `make start-worker`: make sure the database exists and is migrated, then run the music-worker.
set -euo pipefail
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/music}"
node scripts/ensure-database.mjs
node scripts/migrate.mjs
exec node dist/src/main/music-worker.js
