#!/usr/bin/env bash
# `make cluster-test`: the platform on ten hosts made of network namespaces (test/cluster/),
# under faults and load; figures in bench/results/cluster.md. Needs root; touches nothing else
# on the machine: its namespaces, links and temp dirs are named vmc-* and removed at the end,
# on failure or Ctrl-C, and before a run (what a killed run left).
set -uo pipefail
if [ "$(id -u)" -ne 0 ]; then
  echo "cluster-test: needs root (it creates network namespaces, veth pairs and a bridge); nothing was done." >&2
  echo "cluster-test: run it as root, e.g. sudo make cluster-test" >&2
  exit 2
fi
for tool in ip nginx redis-server setpriv openssl /usr/lib/postgresql/15/bin/postgres; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "$tool" ]; then
    echo "cluster-test: $tool is missing (make setup installs it); nothing was done." >&2
    exit 2
  fi
done
if [ "${1:-}" = --root-check-only ]; then exit 0; fi
clean() { npx tsx test/cluster/clean.ts; }
trap 'clean; exit 130' INT TERM
clean
npx vitest run --config test/cluster/vitest.config.ts "$@"
status=$?
clean
exit $status
