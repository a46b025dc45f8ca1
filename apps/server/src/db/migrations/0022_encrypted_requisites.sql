CREATE TABLE "data_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"wrapped" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "account_credentials" ADD COLUMN "value_hash" text;--> statement-breakpoint
ALTER TABLE "account_credentials" ADD COLUMN "value_masked" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credential_hash" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credential_masked" text;--> statement-breakpoint
CREATE INDEX "account_credentials_hash_idx" ON "account_credentials" USING btree ("value_hash");--> statement-breakpoint
CREATE INDEX "invoices_merchant_credential_hash_idx" ON "invoices" USING btree ("merchant_id","credential_hash") WHERE "invoices"."credential_hash" IS NOT NULL;