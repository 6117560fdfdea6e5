# Two commands on a fresh machine: `make start` and `make test`. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := start
NPM_STAMP := node_modules/.install-stamp

.PHONY: setup system deps build start start-eval start-music start-worker test check bench clean

setup: system deps

system:
	@bash scripts/setup-system.sh

# Installs the lockfile's pinned versions, only when it changed since the last install.
# `npm install` rather than `npm ci`: the registry these machines reach lacks some other
# platforms' optional binaries (msgpackr-extract for macOS/Windows), which `npm ci` reports as
# a lockfile mismatch; `npm install` installs exactly the locked tree and leaves the lock as is.
deps: $(NPM_STAMP)
$(NPM_STAMP): package-lock.json package.json
	npm install --no-audit --no-fund
	@touch $(NPM_STAMP)

build: deps
	@node scripts/build.mjs

start: setup build
	@bash scripts/start-all.sh

start-eval: deps build
	node dist/src/main/eval.js

start-music: setup build
	bash scripts/start-music.sh

start-worker: setup build
	bash scripts/start-worker.sh

test: setup build
	npx vitest run

check: deps
	npx prettier --check .
	npx eslint .
	npx tsc --noEmit -p tsconfig.json
	npx madge --circular --extensions ts --ts-config tsconfig.json --exclude '^generated/' src workers

bench: setup build
	node scripts/bench-all.mjs

clean:
	rm -rf dist native/build generated
