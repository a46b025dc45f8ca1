-- The room deposits take under an account's limit, kept in its limit row: account_limits.reserved is the sum of the
-- amounts of the deposits that hold the account's requisites (IN_PROGRESS, PAYED). Routing and the engine's limit
-- guard read this one row instead of summing an account's active deposits on every try. Kept by row triggers on
-- invoices, in the transaction that writes the invoice, whoever writes it (the engine, a bulk load, a release still
-- running the previous code during a rolling upgrade); the reconciliation compares it with the deposits.
-- Lock impact: ADD COLUMN with a constant default changes the catalogue only; CREATE TRIGGER holds invoices against
-- writes until this migration commits, and the backfill reads only the active deposits (invoices_account_status
-- index), so writes wait for about the time of that read.
ALTER TABLE "account_limits" ADD COLUMN "reserved" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION "account_reservations_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- the engine has locked both accounts' limit rows already (ascending id), so these updates wait on nothing new
  IF TG_OP <> 'INSERT' AND OLD.flow_type = 'DEPOSIT' AND OLD.status IN ('IN_PROGRESS', 'PAYED')
      AND OLD.account_id IS NOT NULL THEN
    UPDATE account_limits SET reserved = reserved - OLD.amount WHERE account_id = OLD.account_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.flow_type = 'DEPOSIT' AND NEW.status IN ('IN_PROGRESS', 'PAYED')
      AND NEW.account_id IS NOT NULL THEN
    UPDATE account_limits SET reserved = reserved + NEW.amount WHERE account_id = NEW.account_id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "account_reservations_after_insert" AFTER INSERT ON "invoices" FOR EACH ROW
  WHEN (NEW.flow_type = 'DEPOSIT' AND NEW.status IN ('IN_PROGRESS', 'PAYED') AND NEW.account_id IS NOT NULL)
  EXECUTE FUNCTION "account_reservations_move"();--> statement-breakpoint
CREATE TRIGGER "account_reservations_after_update" AFTER UPDATE OF "status", "amount", "account_id", "flow_type" ON "invoices"
  FOR EACH ROW
  WHEN ((OLD.status, OLD.amount, OLD.account_id, OLD.flow_type) IS DISTINCT FROM (NEW.status, NEW.amount, NEW.account_id, NEW.flow_type)
    AND ((OLD.flow_type = 'DEPOSIT' AND OLD.status IN ('IN_PROGRESS', 'PAYED') AND OLD.account_id IS NOT NULL)
      OR (NEW.flow_type = 'DEPOSIT' AND NEW.status IN ('IN_PROGRESS', 'PAYED') AND NEW.account_id IS NOT NULL)))
  EXECUTE FUNCTION "account_reservations_move"();--> statement-breakpoint
CREATE TRIGGER "account_reservations_after_delete" AFTER DELETE ON "invoices" FOR EACH ROW
  WHEN (OLD.flow_type = 'DEPOSIT' AND OLD.status IN ('IN_PROGRESS', 'PAYED') AND OLD.account_id IS NOT NULL)
  EXECUTE FUNCTION "account_reservations_move"();--> statement-breakpoint
UPDATE "account_limits" l SET "reserved" = s.amount
FROM (SELECT account_id, SUM(amount) AS amount FROM invoices
      WHERE flow_type = 'DEPOSIT' AND status IN ('IN_PROGRESS', 'PAYED') AND account_id IS NOT NULL
      GROUP BY account_id) s
WHERE s.account_id = l.account_id;
