-- Callback deliveries across invoices, endpoint health and bulk replay (modules/callbacks/deliveries.ts, replay.ts):
-- a replay is a new delivery of an event (replay_of: the event's first delivery; replay_id: the bulk replay that
-- queued it); attempts carry their merchant, and callback_attempt_hours counts them per merchant and hour (kept by a
-- statement trigger, as ledger_day_totals is) so that an endpoint's health never counts a day of attempts one by one.
-- Backfilled from the attempts already there.
CREATE TABLE "callback_attempt_hours" (
	"merchant_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"succeeded" integer NOT NULL,
	CONSTRAINT "callback_attempt_hours_merchant_id_hour_pk" PRIMARY KEY("merchant_id","hour")
);
--> statement-breakpoint
ALTER TABLE "callback_attempts" ADD COLUMN "merchant_id" uuid;--> statement-breakpoint
UPDATE "callback_attempts" a SET "merchant_id" = c."merchant_id" FROM "callbacks" c WHERE c."id" = a."callback_id";--> statement-breakpoint
ALTER TABLE "callback_attempts" ALTER COLUMN "merchant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "callbacks" ADD COLUMN "replay_of" uuid;--> statement-breakpoint
ALTER TABLE "callbacks" ADD COLUMN "replay_id" uuid;--> statement-breakpoint
ALTER TABLE "callback_attempt_hours" ADD CONSTRAINT "callback_attempt_hours_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callbacks" ADD CONSTRAINT "callbacks_replay_of_callbacks_id_fk" FOREIGN KEY ("replay_of") REFERENCES "public"."callbacks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "callback_attempts_merchant_time_idx" ON "callback_attempts" USING btree ("merchant_id","attempted_at","response_code");--> statement-breakpoint
CREATE INDEX "callbacks_merchant_list_idx" ON "callbacks" USING btree ("merchant_id","status",("payload" ->> 'type'),"create_date","id");--> statement-breakpoint
CREATE INDEX "callbacks_list_idx" ON "callbacks" USING btree ("status",("payload" ->> 'type'),"create_date","id");--> statement-breakpoint
CREATE INDEX "callbacks_due_first_idx" ON "callbacks" USING btree ("next_attempt_at","id") WHERE "callbacks"."status" = 'PENDING' AND "callbacks"."replay_of" IS NULL;--> statement-breakpoint
CREATE INDEX "callbacks_due_replay_idx" ON "callbacks" USING btree ("next_attempt_at","id") WHERE "callbacks"."status" = 'PENDING' AND "callbacks"."replay_of" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "callbacks_one_pending_replay_uq" ON "callbacks" USING btree ("replay_of") WHERE "callbacks"."status" = 'PENDING' AND "callbacks"."replay_of" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION "callback_attempt_hours_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- UTC hours whatever the session's time zone; rows in key order, so concurrent deliveries lock them alike
  INSERT INTO callback_attempt_hours AS h (merchant_id, hour, attempts, succeeded)
  SELECT a.merchant_id, date_trunc('hour', a.attempted_at, 'UTC'), count(*),
    count(*) FILTER (WHERE a.response_code BETWEEN 200 AND 299)
  FROM new_attempts a
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (merchant_id, hour) DO UPDATE SET
    attempts = h.attempts + excluded.attempts,
    succeeded = h.succeeded + excluded.succeeded;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "callback_attempt_hours_after_insert" AFTER INSERT ON "callback_attempts"
  REFERENCING NEW TABLE AS new_attempts FOR EACH STATEMENT EXECUTE FUNCTION "callback_attempt_hours_add"();
--> statement-breakpoint
INSERT INTO callback_attempt_hours (merchant_id, hour, attempts, succeeded)
SELECT a.merchant_id, date_trunc('hour', a.attempted_at, 'UTC'), count(*),
  count(*) FILTER (WHERE a.response_code BETWEEN 200 AND 299)
FROM callback_attempts a
GROUP BY 1, 2;
