-- The operations desk: unmatched money on the books in suspense, the provider's answers kept beside staff decisions,
-- contradictions between the two (docs/operations.md). Withdrawals' provider transactions are PAYOUTs: an older demo
-- seed wrote 'WITHDRAWAL', which the engine never reads.
UPDATE "provider_transactions" SET "type" = 'PAYOUT' WHERE "type" = 'WITHDRAWAL';--> statement-breakpoint
CREATE TABLE "provider_contradictions" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"provider_status" text NOT NULL,
	"books_status" text NOT NULL,
	"note" text,
	"amount" bigint NOT NULL,
	"currency_id" integer NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"resolution" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_contradictions_amount_exact" CHECK ("provider_contradictions"."amount" BETWEEN -9007199254740991 AND 9007199254740991),
	CONSTRAINT "provider_contradictions_status_check" CHECK ("provider_contradictions"."status" IN ('OPEN', 'RESOLVED'))
);
--> statement-breakpoint
ALTER TABLE "account_limits" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_limits" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "account_limits" ADD COLUMN "paused_by" uuid;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "status" text DEFAULT 'UNMATCHED' NOT NULL;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "currency_id" integer;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "book" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "in_suspense" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "hint_invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "resolution_reason" text;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD COLUMN "return_reference" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "funded_from_suspense" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "incoming_id" uuid;--> statement-breakpoint
ALTER TABLE "provider_transactions" ADD COLUMN "decided_status" text;--> statement-breakpoint
ALTER TABLE "provider_transactions" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_transactions" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "provider_contradictions" ADD CONSTRAINT "provider_contradictions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_contradictions" ADD CONSTRAINT "provider_contradictions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_contradictions" ADD CONSTRAINT "provider_contradictions_transaction_id_provider_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."provider_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_contradictions" ADD CONSTRAINT "provider_contradictions_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_contradictions_transaction_uq" ON "provider_contradictions" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "provider_contradictions_status_created_idx" ON "provider_contradictions" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD CONSTRAINT "incoming_payments_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD CONSTRAINT "incoming_payments_hint_invoice_id_invoices_id_fk" FOREIGN KEY ("hint_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incoming_payments_status_created_idx" ON "incoming_payments" USING btree ("status","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "incoming_payments_account_created_idx" ON "incoming_payments" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "incoming_payments_matched_invoice_idx" ON "incoming_payments" USING btree ("matched_invoice_id");--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD CONSTRAINT "incoming_payments_status_check" CHECK ("incoming_payments"."status" IN ('UNMATCHED', 'MATCHED', 'RETURNED'));--> statement-breakpoint
ALTER TABLE "incoming_payments" ADD CONSTRAINT "incoming_payments_book_check" CHECK ("incoming_payments"."book" IN ('live', 'test'));--> statement-breakpoint
ALTER TABLE "provider_transactions" ADD CONSTRAINT "provider_transactions_type_check" CHECK ("provider_transactions"."type" IN ('DEPOSIT', 'PAYOUT'));--> statement-breakpoint

--> statement-breakpoint
-- the provider's own words for its answers ('SUCCESS'/'FAILED' were an older demo seed's); a transaction the engine
-- closed as CANCELED when staff decided was never answered by the provider: it is open again, with that decision beside it
UPDATE "provider_transactions" SET "status" = 'DONE' WHERE "status" = 'SUCCESS';--> statement-breakpoint
UPDATE "provider_transactions" SET "status" = 'DECLINED' WHERE "status" = 'FAILED';--> statement-breakpoint
UPDATE "provider_transactions" pt SET "status" = 'PENDING', "decided_status" = i."status", "decided_at" = pt."status_date", "sandbox_due_at" = NULL
FROM "invoices" i WHERE i."id" = pt."invoice_id" AND pt."status" = 'CANCELED';--> statement-breakpoint
UPDATE "incoming_payments" ip SET
  "status" = CASE WHEN ip."matched_invoice_id" IS NULL THEN 'UNMATCHED' ELSE 'MATCHED' END,
  "currency_id" = pm."currency_id",
  "book" = CASE WHEN p."is_sandbox" THEN 'test' ELSE 'live' END,
  "in_suspense" = ip."matched_invoice_id" IS NULL
FROM "provider_accounts" a JOIN "payment_methods" pm ON pm."id" = a."payment_method_id"
  JOIN "providers" p ON p."id" = a."provider_id"
WHERE a."id" = ip."account_id";--> statement-breakpoint
ALTER TABLE "incoming_payments" ALTER COLUMN "currency_id" SET NOT NULL;--> statement-breakpoint
-- money that arrived unmatched before suspense existed goes on the books now, dated when it arrived
INSERT INTO "ledger_entries" ("tx_id", "account", "provider_account_id", "incoming_id", "currency_id", "amount", "kind", "book", "created_at")
SELECT x."tx_id", leg."account", CASE WHEN leg."account" = 'provider_account' THEN x."account_id" END, x."id",
  x."currency_id", leg."amount", 'incoming_unmatched', x."book", x."created_at"
FROM (SELECT gen_random_uuid() AS "tx_id", * FROM "incoming_payments" WHERE "in_suspense") x
CROSS JOIN LATERAL (VALUES ('provider_account', x."amount"), ('suspense', -x."amount")) AS leg("account", "amount");--> statement-breakpoint
INSERT INTO "ledger_balances" ("key", "book", "account", "merchant_id", "provider_account_id", "currency_id", "balance")
SELECT e."book" || ':' || e."account" || ':' ||
    CASE WHEN e."account" = 'provider_account' THEN e."provider_account_id"::text ELSE 'platform' END || ':' || e."currency_id",
  e."book", e."account", NULL, CASE WHEN e."account" = 'provider_account' THEN e."provider_account_id" END, e."currency_id",
  SUM(e."amount")
FROM "ledger_entries" e
WHERE e."account" = 'suspense' OR (e."account" = 'provider_account' AND e."provider_account_id" IN
  (SELECT "account_id" FROM "incoming_payments" WHERE "in_suspense"))
GROUP BY 1, 2, 3, 5, 6
ON CONFLICT ("key") DO UPDATE SET "balance" = excluded."balance";--> statement-breakpoint
-- the new platform permissions join the list a merchant role may never hold
ALTER TABLE "roles" DROP CONSTRAINT "roles_merchant_permissions_check";--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_merchant_permissions_check" CHECK ("scope" = 'platform' OR NOT ("permissions" && ARRAY['merchant.rw.all', 'people.account', 'people.account.edit', 'report.read.provider', 'report.read.pool.balance', 'invoice.status.change', 'invoice.amount.change', 'invoice.provider.read', 'invoice.credentials.read', 'ticket.decision', 'terminal.create', 'terminal.attr.read', 'terminal.prod.change', 'settlement.create', 'invoice.retry', 'exceptions.read', 'incoming.resolve']::text[]));
--> statement-breakpoint
ALTER TABLE "provider_transactions" ADD CONSTRAINT "provider_transactions_status_check" CHECK ("provider_transactions"."status" IN ('PENDING', 'DONE', 'DECLINED'));
