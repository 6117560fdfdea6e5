#!/bin/sh
# Runs once, when the PostgreSQL volume is first initialised (the image's
# /docker-entrypoint-initdb.d), as the bootstrap superuser POSTGRES_USER, which no service uses.
# Each service gets its own login role: music owns the database (its migrations create the
# schema; no superuser, no role or database creation); eval may only connect, and is granted
# reading and adding open-bench receipts after each migration (`ops grant-eval`).
# test/db-roles.test.ts runs this script against a real PostgreSQL.
set -eu
: "${POSTGRES_DB:?}" "${MUSIC_DB_USER:=music}" "${EVAL_DB_USER:=eval}"
: "${MUSIC_DB_PASSWORD:?set MUSIC_DB_PASSWORD}" "${EVAL_DB_PASSWORD:?set EVAL_DB_PASSWORD}"
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "${POSTGRES_USER:-postgres}" --dbname "$POSTGRES_DB" \
  -v db="$POSTGRES_DB" -v music="$MUSIC_DB_USER" -v music_pw="$MUSIC_DB_PASSWORD" \
  -v eval="$EVAL_DB_USER" -v eval_pw="$EVAL_DB_PASSWORD" <<'SQL'
CREATE ROLE :"music" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'music_pw';
CREATE ROLE :"eval" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'eval_pw';
ALTER DATABASE :"db" OWNER TO :"music";
ALTER SCHEMA public OWNER TO :"music";
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO :"eval";
GRANT USAGE ON SCHEMA public TO :"eval";
SQL
