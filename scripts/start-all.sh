#!/usr/bin/env bash
# `make start`: every process that can run on this machine, in the foreground; Ctrl-C or
# SIGTERM stops them all (each shuts down gracefully). The databases are made ready first:
# music's (DATABASE_URL) and eval's open-bench ledger (EVAL_DATABASE_URL, by default music's name
# + `_open_bench` on the same server), each created when missing and migrated; then a banner says
# where everything answers once it does (scripts/banner.mjs).
set -uo pipefail
source scripts/eval-ledger.sh
# Development secrets of the music processes, made once and kept in DATA_DIR (git-ignored): the
# API and the worker share them, sessions and signed links survive a restart, and nothing warns
# about secrets made up per start. A variable already set wins; production sets its own.
if [ "${NODE_ENV:-development}" = development ]; then
  secrets="${DATA_DIR:-./data}/dev-secrets.env"
  if [ ! -f "$secrets" ]; then
    mkdir -p "$(dirname "$secrets")"
    (umask 077 && node -e 'for (const k of ["JWT_SECRET", "SECURE_LINK_SECRET", "IP_HASH_SALT", "CLIENT_KEY_SECRET"])
      console.log(`${k}=${require("node:crypto").randomBytes(48).toString("base64url")}`)' >"$secrets")
  fi
  while IFS='=' read -r name value; do
    if [ -n "$name" ] && [ -z "${!name:-}" ]; then export "$name=$value"; fi
  done <"$secrets"
fi
prepare "$DATABASE_URL" & music_ready=$!
prepare "$ledger" & ledger_ready=$!
wait "$music_ready" || { echo "start: music's database is not ready (above); nothing started" >&2; exit 1; }
wait "$ledger_ready" || { echo "start: eval's open-bench ledger is not ready (above); nothing started" >&2; exit 1; }

pids=()
# VERIFY_MODE=queue: eval offloads verifications to the verify queue, and one verify-worker
# here consumes it (more can run on other machines against the same Redis).
if [ "${VERIFY_MODE:-local}" = queue ]; then export CACHE_URL="${CACHE_URL:-redis://127.0.0.1:6379}"; fi
DATABASE_URL="$ledger" node dist/src/main/eval.js & pids+=($!)
node dist/src/main/music-api.js & pids+=($!)
node dist/src/main/music-worker.js & pids+=($!)
if [ "${VERIFY_MODE:-local}" = queue ]; then node dist/src/main/verify-worker.js & pids+=($!); fi
node scripts/banner.mjs & banner=$!
trap 'kill -TERM "${pids[@]}" "$banner" 2>/dev/null; wait' INT TERM
wait -n "${pids[@]}"
status=$?
kill -TERM "${pids[@]}" "$banner" 2>/dev/null
wait
exit $status
