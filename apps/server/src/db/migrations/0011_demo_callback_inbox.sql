CREATE TABLE "demo_callback_inbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"webhook_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"verified" boolean NOT NULL,
	"result" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "demo_callback_inbox" ADD CONSTRAINT "demo_callback_inbox_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demo_callback_inbox_invoice_idx" ON "demo_callback_inbox" USING btree ("invoice_id","received_at");