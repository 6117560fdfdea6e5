-- The open bench's transparency log (docs/open-bench.md#the-log): an RFC 9162 Merkle tree over the
-- published public receipts in publication order, its stored subtree hashes and its signed tree
-- heads. All three tables are append-only: UPDATE, DELETE and TRUNCATE are refused by triggers.
CREATE TABLE "open_bench_log_entries" (
    "leaf_index" BIGINT NOT NULL CHECK ("leaf_index" >= 0),
    "public_id" VARCHAR(32) NOT NULL,
    "entry" BYTEA NOT NULL,
    "leaf_hash" BYTEA NOT NULL CHECK (octet_length("leaf_hash") = 32),
    "appended_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "open_bench_log_entries_pkey" PRIMARY KEY ("leaf_index")
);
CREATE UNIQUE INDEX "open_bench_log_entries_public_id_key" ON "open_bench_log_entries"("public_id");
CREATE INDEX "open_bench_log_entries_leaf_hash_idx" ON "open_bench_log_entries"("leaf_hash");

-- Hashes of the complete aligned subtrees: leaves [idx * 2^level, (idx + 1) * 2^level).
CREATE TABLE "open_bench_log_nodes" (
    "level" SMALLINT NOT NULL CHECK ("level" >= 0),
    "idx" BIGINT NOT NULL CHECK ("idx" >= 0),
    "hash" BYTEA NOT NULL CHECK (octet_length("hash") = 32),
    CONSTRAINT "open_bench_log_nodes_pkey" PRIMARY KEY ("level", "idx")
);

CREATE TABLE "open_bench_log_heads" (
    "tree_size" BIGINT NOT NULL CHECK ("tree_size" > 0),
    "root_hash" BYTEA NOT NULL CHECK (octet_length("root_hash") = 32),
    "timestamp_ms" BIGINT NOT NULL,
    "key_id" VARCHAR(128) NOT NULL,
    "signature" VARCHAR(128) NOT NULL,
    CONSTRAINT "open_bench_log_heads_pkey" PRIMARY KEY ("tree_size")
);

CREATE FUNCTION open_bench_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the open-bench log is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER open_bench_log_entries_append_only BEFORE UPDATE OR DELETE ON "open_bench_log_entries"
    FOR EACH ROW EXECUTE FUNCTION open_bench_log_append_only();
CREATE TRIGGER open_bench_log_entries_no_truncate BEFORE TRUNCATE ON "open_bench_log_entries"
    FOR EACH STATEMENT EXECUTE FUNCTION open_bench_log_append_only();
CREATE TRIGGER open_bench_log_nodes_append_only BEFORE UPDATE OR DELETE ON "open_bench_log_nodes"
    FOR EACH ROW EXECUTE FUNCTION open_bench_log_append_only();
CREATE TRIGGER open_bench_log_nodes_no_truncate BEFORE TRUNCATE ON "open_bench_log_nodes"
    FOR EACH STATEMENT EXECUTE FUNCTION open_bench_log_append_only();
CREATE TRIGGER open_bench_log_heads_append_only BEFORE UPDATE OR DELETE ON "open_bench_log_heads"
    FOR EACH ROW EXECUTE FUNCTION open_bench_log_append_only();
CREATE TRIGGER open_bench_log_heads_no_truncate BEFORE TRUNCATE ON "open_bench_log_heads"
    FOR EACH STATEMENT EXECUTE FUNCTION open_bench_log_append_only();
