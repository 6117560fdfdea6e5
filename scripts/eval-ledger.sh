# Sourced by start-all.sh and start-eval.sh: eval's open-bench ledger URL (EVAL_DATABASE_URL, or
# DATABASE_URL's server and credentials with `_open_bench` after its name) in $ledger, and
# prepare URL: the database created when missing, then migrated.
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/music}"
ledger="${EVAL_DATABASE_URL:-$(node -e 'const u = new URL(process.argv[1]); u.pathname += "_open_bench"; console.log(u.href)' "$DATABASE_URL")}"
# `make start` is the development start: it creates what it names (a mistyped URL shows in the
# "created database" line); `make start-music` alone still refuses a database that is missing.
prepare() { DATABASE_URL="$1" node scripts/ensure-database.mjs --create && DATABASE_URL="$1" node scripts/migrate.mjs; }
