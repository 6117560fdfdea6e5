#!/usr/bin/env bash
# Installs and starts the system services the project needs, where they are missing:
# PostgreSQL, Redis, ffmpeg, promtool (prometheus), openssl, nginx (the edge test runs it as the
# current user; the system service is not started), docker-compose (test/compose.test.ts runs
# `docker-compose config`; no Docker engine is needed), g++, npm, chromium (browser tests),
# supysonic (bench only). On Debian as root this uses apt-get; elsewhere it says exactly what to install and fails.
set -euo pipefail

need_pkgs=()
command -v psql >/dev/null 2>&1 || need_pkgs+=(postgresql)
[ -d /etc/postgresql ] || [ -n "${PGHOST:-}" ] || need_pkgs+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need_pkgs+=(redis-server)
command -v ffmpeg >/dev/null 2>&1 || need_pkgs+=(ffmpeg)
command -v promtool >/dev/null 2>&1 || need_pkgs+=(prometheus)
command -v openssl >/dev/null 2>&1 || need_pkgs+=(openssl)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_pkgs+=(nginx)
command -v docker-compose >/dev/null 2>&1 || need_pkgs+=(docker-compose)
command -v g++ >/dev/null 2>&1 || need_pkgs+=(g++)
# npm fetches the dependencies, and once the pinned Node.js runtime (scripts/setup-node.sh).
command -v npm >/dev/null 2>&1 || need_pkgs+=(npm)
# The browser tests drive Debian's Chromium through playwright-core (test/helpers/browser.ts).
[ -x /usr/bin/chromium ] || [ -n "${CHROMIUM_PATH:-}" ] || need_pkgs+=(chromium)
# The Python Subsonic server bench/subsonic.ts measures the OpenSubsonic API against.
command -v supysonic-cli >/dev/null 2>&1 || need_pkgs+=(supysonic python3-waitress)

if [ ${#need_pkgs[@]} -gt 0 ]; then
  # shellcheck disable=SC2207
  need_pkgs=($(printf '%s\n' "${need_pkgs[@]}" | sort -u))
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${need_pkgs[*]} with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
  else
    echo "setup: missing system packages: ${need_pkgs[*]}" >&2
    echo "setup: install them (Debian/Ubuntu: sudo apt-get install ${need_pkgs[*]}) and run make again" >&2
    exit 1
  fi
fi

# Redis on 127.0.0.1:6379 (nothing kept on disk: tests and development only need it live).
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "setup: starting redis-server on 127.0.0.1:6379"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir "$(mktemp -d)" --logfile "${TMPDIR:-/tmp}/redis-setup.log"
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

# PostgreSQL on 127.0.0.1:5432 with local trust for user postgres (Debian's cluster layout).
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    echo "setup: starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    for _ in $(seq 1 100); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 0.1; done
  fi
fi
pg_isready -h 127.0.0.1 -p 5432 -q || { echo "setup: PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null || { echo "setup: Redis is not answering on 127.0.0.1:6379" >&2; exit 1; }
