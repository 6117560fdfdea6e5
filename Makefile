# Two commands on a fresh machine: `make start` and `make test`. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := start
NPM_STAMP := node_modules/.install-stamp

.PHONY: setup system deps build start start-eval start-music start-worker test check bench clean

setup: system deps

system:
	@bash scripts/setup-system.sh

# npm ci from the lockfile (pinned versions), only when the lockfile changed since the last install.
deps: $(NPM_STAMP)
$(NPM_STAMP): package-lock.json package.json
	npm ci --no-audit --no-fund
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
	node dist/src/main/music-worker.js

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
