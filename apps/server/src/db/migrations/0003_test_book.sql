CREATE TABLE "ledger_balances" (
	"key" text PRIMARY KEY NOT NULL,
	"book" text NOT NULL,
	"account" text NOT NULL,
	"merchant_id" uuid,
	"provider_account_id" integer,
	"currency_id" integer NOT NULL,
	"balance" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "book" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_balances_merchant_idx" ON "ledger_balances" USING btree ("merchant_id","account","currency_id");--> statement-breakpoint
CREATE INDEX "ledger_balances_provider_idx" ON "ledger_balances" USING btree ("provider_account_id");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_book_check" CHECK ("ledger_entries"."book" IN ('live', 'test'));--> statement-breakpoint
-- Existing books: entries of test invoices (and settlements on test terminals) move to the test book.
UPDATE "ledger_entries" e SET "book" = 'test' FROM "invoices" i WHERE i."id" = e."invoice_id" AND i."is_test";--> statement-breakpoint
UPDATE "ledger_entries" e SET "book" = 'test' FROM "terminals" t
  WHERE e."settlement_id" IS NOT NULL AND t."id" = e."terminal_id" AND t."is_test";--> statement-breakpoint
-- Balances from the entries they sum (the same key as ledger/service.ts balanceKey).
INSERT INTO "ledger_balances" ("key", "book", "account", "merchant_id", "provider_account_id", "currency_id", "balance")
SELECT e."book" || ':' || e."account" || ':' ||
         CASE WHEN e."account" = 'provider_account' THEN coalesce(e."provider_account_id"::text, 'none')
              ELSE coalesce(e."merchant_id"::text, 'none') END || ':' || e."currency_id",
       e."book", e."account",
       CASE WHEN e."account" = 'provider_account' THEN NULL ELSE e."merchant_id" END,
       CASE WHEN e."account" = 'provider_account' THEN e."provider_account_id" END,
       e."currency_id", SUM(e."amount")
FROM "ledger_entries" e GROUP BY 1, 2, 3, 4, 5, 6;
