CREATE TABLE "statement_days" (
	"statement_id" uuid NOT NULL,
	"day" date NOT NULL,
	"currency_id" integer NOT NULL,
	"lines" integer NOT NULL,
	"matched" integer NOT NULL,
	"statement_only" integer NOT NULL,
	"mismatches" integer NOT NULL,
	"amount_in" bigint NOT NULL,
	"amount_out" bigint NOT NULL,
	CONSTRAINT "statement_days_statement_id_day_currency_id_pk" PRIMARY KEY("statement_id","day","currency_id")
);
--> statement-breakpoint
CREATE TABLE "statement_matches" (
	"statement_id" uuid NOT NULL,
	"chunk" integer NOT NULL,
	"line_nos" integer[] NOT NULL,
	"occurred_at" timestamp with time zone[] NOT NULL,
	"kinds" text NOT NULL,
	"book_ids" uuid[] NOT NULL,
	CONSTRAINT "statement_matches_statement_id_chunk_pk" PRIMARY KEY("statement_id","chunk")
);
--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "approval_id" uuid;--> statement-breakpoint
ALTER TABLE "statement_days" ADD CONSTRAINT "statement_days_statement_id_provider_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."provider_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_days" ADD CONSTRAINT "statement_days_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_matches" ADD CONSTRAINT "statement_matches_statement_id_provider_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."provider_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "statement_days_day_idx" ON "statement_days" USING btree ("day");--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_approval_id_approval_requests_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approval_requests"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- the arrays hold line numbers, times and ids that do not compress: stored as they are, no compression attempted
ALTER TABLE "statement_matches" ALTER COLUMN "line_nos" SET STORAGE EXTERNAL, ALTER COLUMN "occurred_at" SET STORAGE EXTERNAL, ALTER COLUMN "book_ids" SET STORAGE EXTERNAL;--> statement-breakpoint
-- statements reconciled before: their matched lines move to the compact form, and their days are counted
INSERT INTO "statement_matches" ("statement_id", "chunk", "line_nos", "occurred_at", "kinds", "book_ids")
  SELECT statement_id, line_no / 10000, array_agg(line_no ORDER BY line_no), array_agg(occurred_at ORDER BY line_no),
    string_agg(CASE WHEN direction = 'IN' THEN 'I' ELSE 'O' END, '' ORDER BY line_no), array_agg(coalesce(incoming_id, transaction_id) ORDER BY line_no)
  FROM "statement_lines" WHERE outcome = 'MATCHED' GROUP BY statement_id, line_no / 10000;--> statement-breakpoint
INSERT INTO "statement_days" ("statement_id", "day", "currency_id", "lines", "matched", "statement_only", "mismatches", "amount_in", "amount_out")
  SELECT l.statement_id, (l.occurred_at AT TIME ZONE 'UTC')::date, pm.currency_id, count(*),
    count(*) FILTER (WHERE l.outcome = 'MATCHED'), count(*) FILTER (WHERE l.outcome = 'STATEMENT_ONLY'),
    count(*) FILTER (WHERE l.outcome = 'MISMATCH'),
    coalesce(sum(l.amount) FILTER (WHERE l.direction = 'IN'), 0), coalesce(sum(l.amount) FILTER (WHERE l.direction = 'OUT'), 0)
  FROM "statement_lines" l JOIN "provider_accounts" a ON a.id = l.account_id JOIN "payment_methods" pm ON pm.id = a.payment_method_id
  WHERE l.line_no IS NOT NULL GROUP BY 1, 2, 3;--> statement-breakpoint
DELETE FROM "statement_lines" WHERE outcome = 'MATCHED';
