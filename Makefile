# Two commands on a fresh machine: `make start` and `make test`. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := start
NPM_STAMP := node_modules/.install-stamp

# Node.js 24 for every target: when the system's node is older (or missing), `make setup`
# provides the pinned build in .runtime/ (scripts/setup-node.sh, docs/runtime.md) and it comes
# first on PATH for every recipe, with its headers for node-gyp. NODE_RUNTIME=system opts out.
include scripts/node-runtime.env
NODE_RUNTIME ?= auto
NODE_RUNTIME_DIR := $(CURDIR)/.runtime/node-v$(NODE_RUNTIME_VERSION)-linux-x64
SYSTEM_NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifeq ($(NODE_RUNTIME),system)
USE_NODE_RUNTIME := no
else ifeq ($(shell test "$(SYSTEM_NODE_MAJOR)" -ge 24 && echo yes),yes)
USE_NODE_RUNTIME := no
else
USE_NODE_RUNTIME := yes
export PATH := $(NODE_RUNTIME_DIR)/bin:$(PATH)
export npm_config_nodedir := $(NODE_RUNTIME_DIR)
endif

.PHONY: cluster-test client-deps client-build client-types setup system node deps build start start-eval start-music start-worker start-verify-worker test check bench bench-guard load soak clean

setup: system node deps

system:
	@bash scripts/setup-system.sh

node:
ifeq ($(USE_NODE_RUNTIME),yes)
	@bash scripts/setup-node.sh
else
	@echo "setup: using the system's node $$(node --version) ($$(command -v node))"
endif

# Installs the lockfile's pinned versions, only when it changed since the last install.
# `npm install` rather than `npm ci`: the registry these machines reach lacks some other
# platforms' optional binaries (msgpackr-extract for macOS/Windows), which `npm ci` reports as
# a lockfile mismatch; `npm install` installs exactly the locked tree and leaves the lock as is.
deps: node $(NPM_STAMP)
$(NPM_STAMP): package-lock.json package.json
	npm install --no-audit --no-fund
	@touch $(NPM_STAMP)

build: deps
	@node scripts/build.mjs

# The typed client (clients/typescript): its own package and lockfile, installed from the same
# registry as the root; built by `make test` and `make check`, tested against the built service.
CLIENT := clients/typescript
CLIENT_STAMP := $(CLIENT)/node_modules/.install-stamp
client-deps: node $(CLIENT_STAMP)
$(CLIENT_STAMP): $(CLIENT)/package-lock.json $(CLIENT)/package.json
	cd $(CLIENT) && npm install --no-audit --no-fund
	@touch $(CLIENT_STAMP)

client-build: client-deps
	cd $(CLIENT) && npm run build

# The client's generated types and tool methods, from the tool registry's OpenAPI document (no
# service started): run after adding or changing a tool; the tests check the committed files.
client-types: deps client-deps
	cd $(CLIENT) && npm run generate

start: setup build
	@bash scripts/start-all.sh

start-eval: setup build
	bash scripts/start-eval.sh

start-music: setup build
	bash scripts/start-music.sh

start-worker: setup build
	bash scripts/start-worker.sh

# A consumer of the `verify` queue (VERIFY_MODE=queue on eval); run any number, on any machine
# that reaches the same Redis (CACHE_URL, default redis://127.0.0.1:6379).
start-verify-worker: deps build
	node dist/src/main/verify-worker.js

test: setup build client-build
	@echo "tests run on Node $$(node --version) ($$(command -v node))"
	npx vitest run
	cd $(CLIENT) && npm test

check: node deps client-build
	npx prettier --check .
	npx eslint .
	npx tsc --noEmit -p tsconfig.json
	npx tsc --noEmit -p web/tsconfig.json
	cd $(CLIENT) && npx tsc --noEmit -p tsconfig.json
	# Import boundaries and cycles (.dependency-cruiser.cjs; docs/architecture.md names the rooms).
	npx depcruise src workers --config .dependency-cruiser.cjs
	# Unused files, exports, types and dependencies (knip.json names the entry points).
	npx knip --no-progress

bench: setup build
	node scripts/bench-all.mjs

# Latency guard: the ratio benchmarks, briefly, against the floors in bench/floors.json (ratios
# only, never absolute times). Not part of `make test`: a loaded machine must not fail CI.
bench-guard: setup build
	node scripts/bench-guard.mjs

# The platform on several hosts (network namespaces: lb, api1/2, eval1/2, worker1/2, verify1/2,
# data) under faults and load; root only (the script says so and does nothing otherwise);
# results in bench/results/cluster.md. Never part of `make test`.
cluster-test:
	@bash scripts/cluster-test.sh --root-check-only
	@$(MAKE) --no-print-directory build
	@bash scripts/cluster-test.sh

# Load scenarios, each bounded by LOAD_SECONDS (default 20), each printing a summary table;
# non-zero on any 5xx/error. Against a stack of its own (own ports, database, Redis prefixes and
# track; stopped after) unless EVAL_URL/MUSIC_URL name one, which is probed first (load-tests/run.ts).
load: setup build
	npx tsx load-tests/run.ts

# Soak: mixed traffic for LOAD_SECONDS (default 1800), RSS and event-loop delay every minute,
# fails on steady RSS growth.
soak: setup build
	LOAD_SCENARIOS=soak LOAD_SECONDS=$${LOAD_SECONDS:-1800} npx tsx load-tests/run.ts

clean:
	rm -rf dist native/build generated test-artifacts
