-- The append-only ledger refused UPDATE and DELETE row by row, but TRUNCATE fires no row trigger, so
-- it is refused by a statement trigger of its own (the same function and message).
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();
