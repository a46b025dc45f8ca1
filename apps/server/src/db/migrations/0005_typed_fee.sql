ALTER TABLE "terminals" ADD COLUMN "fee_bps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "terminals" ADD CONSTRAINT "terminals_fee_bps_check" CHECK ("terminals"."fee_bps" BETWEEN 0 AND 10000);--> statement-breakpoint
-- The fee was a string attribute (FEE_PERCENT); valid ones (0–100 with at most two decimals) become basis points.
UPDATE "terminals" t SET "fee_bps" = round(ta."value"::numeric * 100)::int
  FROM "terminal_attributes" ta JOIN "references" r ON r."id" = ta."attr_type_id"
  WHERE ta."terminal_id" = t."id" AND r."header_id" = 105 AND r."code" = 'FEE_PERCENT'
    AND ta."value" ~ '^\s*\d{1,3}(\.\d{1,2})?\s*$' AND ta."value"::numeric <= 100;--> statement-breakpoint
-- The callback URL attribute was never read: its value moves to the column callbacks use, where that is empty.
UPDATE "terminals" t SET "callback_url" = trim(ta."value")
  FROM "terminal_attributes" ta JOIN "references" r ON r."id" = ta."attr_type_id"
  WHERE ta."terminal_id" = t."id" AND r."header_id" = 105 AND r."code" = 'CALLBACK_URL'
    AND t."callback_url" IS NULL AND trim(ta."value") ~ '^https?://';--> statement-breakpoint
DELETE FROM "terminal_attributes" ta USING "references" r
  WHERE r."id" = ta."attr_type_id" AND r."header_id" = 105 AND r."code" IN ('FEE_PERCENT', 'CALLBACK_URL');--> statement-breakpoint
DELETE FROM "references" WHERE "header_id" = 105 AND "code" IN ('FEE_PERCENT', 'CALLBACK_URL');
