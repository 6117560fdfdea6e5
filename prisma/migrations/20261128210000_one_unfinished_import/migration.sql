-- At most one unfinished import per owner and folder (docs/library-import.md): 30 parallel starts
-- of the same folder meet here and make one import, not 30. Older duplicates are marked failed first.
UPDATE "library_imports" i SET "status" = 'failed', "error" = 'a duplicate of another unfinished import of this folder'
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "owner_user_id", "root" ORDER BY "created_at" DESC, "id" DESC) AS n
  FROM "library_imports"
  WHERE "status" IN ('queued', 'running', 'paused')
) ranked
WHERE i."id" = ranked."id" AND ranked.n > 1;

-- Partial: schema.prisma cannot express it (as account_tokens_one_live).
CREATE UNIQUE INDEX "library_imports_one_unfinished" ON "library_imports" ("owner_user_id", "root")
  WHERE "status" IN ('queued', 'running', 'paused');
