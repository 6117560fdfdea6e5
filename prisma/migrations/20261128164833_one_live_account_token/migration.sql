-- At most one live (unused) token per account and purpose (docs/accounts.md, "Password reset"):
-- concurrent requests meet here as well as at the account's row lock, so a newer link always
-- voids the older ones and 30 parallel resets leave one live token, not six.
UPDATE "account_tokens" t SET "used_at" = CURRENT_TIMESTAMP
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "user_id", "purpose" ORDER BY "created_at" DESC, "id" DESC) AS n
  FROM "account_tokens"
  WHERE "used_at" IS NULL
) ranked
WHERE t."id" = ranked."id" AND ranked.n > 1;

-- Partial: schema.prisma cannot express it and `prisma migrate diff` leaves it alone (as purchases_one_open_sale).
CREATE UNIQUE INDEX "account_tokens_one_live" ON "account_tokens" ("user_id", "purpose") WHERE "used_at" IS NULL;
