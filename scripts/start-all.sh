#!/usr/bin/env bash
# `make start`: every process that can run on this machine, in the foreground; Ctrl-C or
# SIGTERM stops them all (each shuts down gracefully).
set -uo pipefail
pids=()
# VERIFY_MODE=queue: eval offloads verifications to the verify queue, and one verify-worker
# here consumes it (more can run on other machines against the same Redis).
if [ "${VERIFY_MODE:-local}" = queue ]; then export CACHE_URL="${CACHE_URL:-redis://127.0.0.1:6379}"; fi
node dist/src/main/eval.js & pids+=($!)
if [ -f dist/src/main/music-api.js ]; then bash scripts/start-music.sh & pids+=($!); fi
if [ -f dist/src/main/music-worker.js ]; then node dist/src/main/music-worker.js & pids+=($!); fi
if [ "${VERIFY_MODE:-local}" = queue ]; then node dist/src/main/verify-worker.js & pids+=($!); fi
trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait' INT TERM
wait -n "${pids[@]}"
status=$?
kill -TERM "${pids[@]}" 2>/dev/null
wait
exit $status
