#!/usr/bin/env bash
# `make start`: every process that can run on this machine, in the foreground; Ctrl-C or
# SIGTERM stops them all (each shuts down gracefully).
set -uo pipefail
pids=()
node dist/src/main/eval.js & pids+=($!)
if [ -f dist/src/main/music-api.js ]; then bash scripts/start-music.sh & pids+=($!); fi
if [ -f dist/src/main/music-worker.js ]; then node dist/src/main/music-worker.js & pids+=($!); fi
trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait' INT TERM
wait -n "${pids[@]}"
status=$?
kill -TERM "${pids[@]}" 2>/dev/null
wait
exit $status
