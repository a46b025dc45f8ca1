ALTER TABLE "incoming_payments" ADD COLUMN "payer_name" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "updated_by" uuid;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;