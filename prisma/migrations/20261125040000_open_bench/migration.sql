-- The open benchmark's ledger (evaluation service): opt-in, sanitized public receipts.
-- CreateTable
CREATE TABLE "open_bench_receipts" (
    "id" BIGSERIAL NOT NULL,
    "public_id" VARCHAR(32) NOT NULL,
    "track" VARCHAR(64) NOT NULL,
    "display_name" VARCHAR(64) NOT NULL,
    "verdict" VARCHAR(8) NOT NULL,
    "tasks" INTEGER NOT NULL,
    "baseline_passed" INTEGER NOT NULL,
    "candidate_passed" INTEGER NOT NULL,
    "gains" INTEGER NOT NULL,
    "regressions" INTEGER NOT NULL,
    "receipt" JSONB NOT NULL,
    "receipt_sha256" CHAR(64) NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "open_bench_receipts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "open_bench_receipts_public_id_key" ON "open_bench_receipts"("public_id");

-- CreateIndex
CREATE INDEX "open_bench_receipts_published_at_id_idx" ON "open_bench_receipts"("published_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "open_bench_receipts_candidate_passed_regressions_gains_publ_idx" ON "open_bench_receipts"("candidate_passed" DESC, "regressions", "gains" DESC, "published_at" DESC);

