CREATE TABLE "approval_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"merchant_id" uuid,
	"enabled" boolean DEFAULT false NOT NULL,
	"thresholds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "approval_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action" text NOT NULL,
	"merchant_id" uuid,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"summary" text NOT NULL,
	"payload" jsonb NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text NOT NULL,
	"amount" bigint,
	"currency" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"maker_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decision_reason" text,
	"refusal" text,
	"refused_at" timestamp with time zone,
	CONSTRAINT "approval_requests_status_check" CHECK ("approval_requests"."status" IN ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED'))
);
--> statement-breakpoint
CREATE TABLE "provider_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" integer NOT NULL,
	"period_from" timestamp with time zone NOT NULL,
	"period_to" timestamp with time zone NOT NULL,
	"filename" text NOT NULL,
	"content_hash" text NOT NULL,
	"line_count" integer NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"uploaded_by" uuid,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" uuid NOT NULL,
	"line_no" integer,
	"occurred_at" timestamp with time zone NOT NULL,
	"account_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"direction" text NOT NULL,
	"reference" text NOT NULL,
	"outcome" text NOT NULL,
	"incoming_id" uuid,
	"transaction_id" uuid,
	"detail" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolution" text,
	"resolution_reason" text,
	CONSTRAINT "statement_lines_direction_check" CHECK ("statement_lines"."direction" IN ('IN', 'OUT')),
	CONSTRAINT "statement_lines_outcome_check" CHECK ("statement_lines"."outcome" IN ('MATCHED', 'STATEMENT_ONLY', 'BOOKS_ONLY', 'MISMATCH'))
);
--> statement-breakpoint
CREATE TABLE "statement_mappings" (
	"provider_id" integer PRIMARY KEY NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_maker_id_users_id_fk" FOREIGN KEY ("maker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_statements" ADD CONSTRAINT "provider_statements_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_statements" ADD CONSTRAINT "provider_statements_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_statement_id_provider_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."provider_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_mappings" ADD CONSTRAINT "statement_mappings_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_mappings" ADD CONSTRAINT "statement_mappings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_policies_action_scope_uq" ON "approval_policies" USING btree ("action",coalesce("merchant_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "approval_requests_status_created_idx" ON "approval_requests" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "approval_requests_created_idx" ON "approval_requests" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "approval_requests_pending_expiry_idx" ON "approval_requests" USING btree ("expires_at") WHERE "approval_requests"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "approval_requests_pending_target_uq" ON "approval_requests" USING btree ("target_type","target_id","action") WHERE "approval_requests"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "provider_statements_provider_hash_uq" ON "provider_statements" USING btree ("provider_id","content_hash");--> statement-breakpoint
CREATE INDEX "statement_lines_statement_outcome_idx" ON "statement_lines" USING btree ("statement_id","outcome","id");--> statement-breakpoint
CREATE INDEX "statement_lines_open_idx" ON "statement_lines" USING btree ("id") WHERE "statement_lines"."outcome" <> 'MATCHED' AND "statement_lines"."resolved_at" IS NULL;