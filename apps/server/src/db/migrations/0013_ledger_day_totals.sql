-- Period checkpoints of the live ledger for the balance report: per merchant, currency, terminal and UTC
-- day, the sums the report shows. Kept by a statement trigger in the transaction that posts the entries (the ledger
-- is append-only), so a report over any period reads one row per day and terminal, and its opening balance the
-- days before it, whatever the number of entries. Backfilled from the entries already there.
CREATE TABLE "ledger_day_totals" (
	"merchant_id" uuid NOT NULL,
	"currency_id" integer NOT NULL,
	"terminal_id" uuid,
	"day" date NOT NULL,
	"deposits" bigint NOT NULL,
	"withdrawals" bigint NOT NULL,
	"fees" bigint NOT NULL,
	"settlements" bigint NOT NULL,
	"net" bigint NOT NULL,
	CONSTRAINT "ledger_day_totals_uq" UNIQUE NULLS NOT DISTINCT("merchant_id","currency_id","day","terminal_id")
);
--> statement-breakpoint
CREATE FUNCTION "ledger_day_totals_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- deposits credited (net of fee), withdrawals paid (fee included), fees, settlements, and the merchant account's
  -- net (−amount), as the balance report defines them
  INSERT INTO ledger_day_totals AS t (merchant_id, currency_id, terminal_id, day, deposits, withdrawals, fees, settlements, net)
  SELECT e.merchant_id, e.currency_id, e.terminal_id, (e.created_at AT TIME ZONE 'UTC')::date,
    COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND i.flow_type = 'DEPOSIT'), 0),
    COALESCE(SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND i.flow_type = 'WITHDRAWAL'), 0),
    COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'fees'), 0),
    COALESCE(SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND e.settlement_id IS NOT NULL), 0),
    COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'merchant'), 0)
  FROM new_entries e LEFT JOIN invoices i ON i.id = e.invoice_id
  WHERE e.book = 'live' AND e.account IN ('merchant', 'fees') AND e.merchant_id IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 4, 3
  ON CONFLICT ON CONSTRAINT ledger_day_totals_uq DO UPDATE SET
    deposits = t.deposits + excluded.deposits,
    withdrawals = t.withdrawals + excluded.withdrawals,
    fees = t.fees + excluded.fees,
    settlements = t.settlements + excluded.settlements,
    net = t.net + excluded.net;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_day_totals_after_insert" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION "ledger_day_totals_add"();
--> statement-breakpoint
INSERT INTO ledger_day_totals (merchant_id, currency_id, terminal_id, day, deposits, withdrawals, fees, settlements, net)
SELECT e.merchant_id, e.currency_id, e.terminal_id, (e.created_at AT TIME ZONE 'UTC')::date,
  COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND i.flow_type = 'DEPOSIT'), 0),
  COALESCE(SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND i.flow_type = 'WITHDRAWAL'), 0),
  COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'fees'), 0),
  COALESCE(SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND e.settlement_id IS NOT NULL), 0),
  COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'merchant'), 0)
FROM ledger_entries e LEFT JOIN invoices i ON i.id = e.invoice_id
WHERE e.book = 'live' AND e.account IN ('merchant', 'fees') AND e.merchant_id IS NOT NULL
GROUP BY 1, 2, 3, 4;
