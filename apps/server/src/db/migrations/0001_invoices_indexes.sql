CREATE INDEX "invoices_merchant_terminal_created_idx" ON "invoices" USING btree ("merchant_id","terminal_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "invoices_merchant_status_date_idx" ON "invoices" USING btree ("merchant_id","status_date");--> statement-breakpoint
CREATE INDEX "invoices_merchant_amount_idx" ON "invoices" USING btree ("merchant_id","amount");