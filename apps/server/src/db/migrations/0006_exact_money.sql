ALTER TABLE "incoming_payments" ADD CONSTRAINT "incoming_payments_amount_exact" CHECK ("incoming_payments"."amount" BETWEEN -9007199254740991 AND 9007199254740991);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_amount_exact" CHECK ("invoices"."amount" BETWEEN -9007199254740991 AND 9007199254740991);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_fee_exact" CHECK ("invoices"."fee" BETWEEN -9007199254740991 AND 9007199254740991);--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_amount_exact" CHECK ("ledger_entries"."amount" BETWEEN -9007199254740991 AND 9007199254740991);--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_min_exact" CHECK ("payment_methods"."min_amount" BETWEEN -9007199254740991 AND 9007199254740991);--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_max_exact" CHECK ("payment_methods"."max_amount" BETWEEN -9007199254740991 AND 9007199254740991);--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_base_exact" CHECK ("settlements"."base_amount" BETWEEN -9007199254740991 AND 9007199254740991);--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_amount_exact" CHECK ("settlements"."settlement_amount" BETWEEN -9007199254740991 AND 9007199254740991);