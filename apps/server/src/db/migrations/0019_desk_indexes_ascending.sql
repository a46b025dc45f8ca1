DROP INDEX "incoming_payments_status_created_idx";--> statement-breakpoint
DROP INDEX "incoming_payments_account_created_idx";--> statement-breakpoint
DROP INDEX "invoices_account_created_idx";--> statement-breakpoint
DROP INDEX "provider_contradictions_status_created_idx";--> statement-breakpoint
CREATE INDEX "incoming_payments_status_created_idx" ON "incoming_payments" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "incoming_payments_account_created_idx" ON "incoming_payments" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_account_created_idx" ON "invoices" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "provider_contradictions_status_created_idx" ON "provider_contradictions" USING btree ("status","created_at","id");