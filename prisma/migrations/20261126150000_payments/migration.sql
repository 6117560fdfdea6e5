-- Payments (docs/payments.md): a track's price, purchases and tips through the provider's
-- Checkout, each webhook event recorded once, and an append-only ledger every total is computed from.
CREATE TYPE "PurchaseKind" AS ENUM ('sale', 'tip');
CREATE TYPE "PurchaseStatus" AS ENUM ('pending', 'awaiting_payment', 'paid', 'failed', 'refunded', 'disputed');
CREATE TYPE "LedgerKind" AS ENUM ('sale', 'tip', 'refund', 'dispute', 'fee');

CREATE TABLE "track_prices" (
    "track_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    -- NULL: not for sale (tips may still be on). With pay_what_you_want it is the minimum.
    "amount_minor" INTEGER,
    "pay_what_you_want" BOOLEAN NOT NULL DEFAULT false,
    "tips" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "track_prices_pkey" PRIMARY KEY ("track_id"),
    CONSTRAINT "track_prices_currency_lower" CHECK ("currency" ~ '^[a-z]{3}$'),
    CONSTRAINT "track_prices_amount_positive" CHECK ("amount_minor" IS NULL OR "amount_minor" > 0)
);
ALTER TABLE "track_prices" ADD CONSTRAINT "track_prices_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "purchases" (
    "id" UUID NOT NULL,
    "kind" "PurchaseKind" NOT NULL,
    "status" "PurchaseStatus" NOT NULL DEFAULT 'pending',
    -- A deleted account or track keeps its money history: the ids stay, the link goes.
    "buyer_user_id" UUID,
    "track_id" UUID,
    "artist_user_id" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount_minor" INTEGER NOT NULL,
    "checkout_session_id" VARCHAR(255),
    "payment_intent_id" VARCHAR(255),
    "failure" VARCHAR(500),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    CONSTRAINT "purchases_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "purchases_amount_positive" CHECK ("amount_minor" > 0)
);
CREATE UNIQUE INDEX "purchases_checkout_session_id_key" ON "purchases"("checkout_session_id");
CREATE UNIQUE INDEX "purchases_payment_intent_id_key" ON "purchases"("payment_intent_id");
CREATE INDEX "purchases_buyer_user_id_created_at_idx" ON "purchases"("buyer_user_id", "created_at" DESC);
CREATE INDEX "purchases_track_id_buyer_user_id_idx" ON "purchases"("track_id", "buyer_user_id");
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_buyer_user_id_fkey" FOREIGN KEY ("buyer_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_track_id_fkey" FOREIGN KEY ("track_id") REFERENCES "tracks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Each provider event once: a redelivery finds its row and changes nothing.
CREATE TABLE "payment_events" (
    "id" VARCHAR(255) NOT NULL,
    "type" VARCHAR(100) NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(3),
    "outcome" VARCHAR(500),
    CONSTRAINT "payment_events_pkey" PRIMARY KEY ("id")
);

-- Append-only: signed amounts in minor units (sales and tips positive, refunds, disputes and
-- fees negative); `reference` makes each money movement a row once.
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "purchase_id" UUID NOT NULL,
    "artist_user_id" UUID NOT NULL,
    "kind" "LedgerKind" NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount_minor" INTEGER NOT NULL,
    "reference" VARCHAR(300) NOT NULL,
    "event_id" VARCHAR(255),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_entries_sign" CHECK (
        ("kind" IN ('sale', 'tip') AND "amount_minor" > 0) OR
        ("kind" IN ('refund', 'dispute', 'fee') AND "amount_minor" < 0))
);
CREATE UNIQUE INDEX "ledger_entries_reference_key" ON "ledger_entries"("reference");
CREATE INDEX "ledger_entries_artist_user_id_created_at_idx" ON "ledger_entries"("artist_user_id", "created_at" DESC, "id" DESC);
CREATE INDEX "ledger_entries_purchase_id_idx" ON "ledger_entries"("purchase_id");
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
