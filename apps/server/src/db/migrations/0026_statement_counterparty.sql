ALTER TABLE "statement_lines" ADD COLUMN "counterparty_hash" text;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "counterparty_masked" text;--> statement-breakpoint
ALTER TABLE "statement_matches" ADD COLUMN "counterparties" text[];--> statement-breakpoint
ALTER TABLE "statement_matches" ADD COLUMN "counterparty_hashes" text[];