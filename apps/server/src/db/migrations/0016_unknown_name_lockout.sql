CREATE TABLE "login_name_failures" (
	"username" text PRIMARY KEY NOT NULL,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_failed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_name_failures_last_failed_idx" ON "login_name_failures" USING btree ("last_failed_at");