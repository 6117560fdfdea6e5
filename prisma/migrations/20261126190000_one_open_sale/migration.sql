-- At most one open sale per (buyer, track) (docs/payments.md, "One open sale per track"): two
-- checkouts at the same instant meet here, in the index, not in a read-then-write. A second
-- checkout answers the open purchase and its stored Checkout URL until the session expires.
ALTER TABLE "purchases" ADD COLUMN "checkout_url" VARCHAR(2048),
                        ADD COLUMN "checkout_expires_at" TIMESTAMPTZ(3);

-- Open sales made before this migration that overlap are closed but the newest (an
-- awaiting_payment one first: its payment is under way). A late payment of a closed one is
-- granted, or refunded when the buyer owns the track already (src/music/services/payment-events.ts).
UPDATE "purchases" p SET "status" = 'failed', "failure" = 'superseded by a newer checkout for the same track', "updated_at" = CURRENT_TIMESTAMP
FROM (
  SELECT "id", row_number() OVER (
           PARTITION BY "buyer_user_id", "track_id"
           ORDER BY ("status" = 'awaiting_payment') DESC, "created_at" DESC, "id" DESC) AS n
  FROM "purchases"
  WHERE "kind" = 'sale' AND "status" IN ('pending', 'awaiting_payment') AND "buyer_user_id" IS NOT NULL
) ranked
WHERE p."id" = ranked."id" AND ranked.n > 1;

-- Partial: schema.prisma cannot express it, and Prisma's schema engine does not read partial
-- indexes, so `prisma migrate diff` neither drops nor re-creates it (checked with Prisma 6.19).
CREATE UNIQUE INDEX "purchases_one_open_sale" ON "purchases" ("buyer_user_id", "track_id")
  WHERE "kind" = 'sale' AND "status" IN ('pending', 'awaiting_payment');
