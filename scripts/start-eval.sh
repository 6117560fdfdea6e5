#!/usr/bin/env bash
# `make start-eval`: eval with its open-bench ledger, created when missing and migrated.
set -euo pipefail
source scripts/eval-ledger.sh
prepare "$ledger"
DATABASE_URL="$ledger" exec node dist/src/main/eval.js
