CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" uuid,
	"actor_username" text,
	"actor_kind" text NOT NULL,
	"merchant_id" uuid,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "merchant_settings" (
	"merchant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_settings_merchant_id_key_pk" PRIMARY KEY("merchant_id","key")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "previous_webhook_secret" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "previous_webhook_secret_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "scope" text DEFAULT 'merchant' NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "scope" text GENERATED ALWAYS AS (CASE WHEN merchant_id IS NULL THEN 'platform' ELSE 'merchant' END) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Existing databases: the preset roles of contracts' PRESET_ROLES (permissions are kept in step at start-up),
-- old demo roles mapped onto them, any other role scoped by who holds it.
INSERT INTO "roles" ("code", "name", "scope", "permissions") VALUES
  ('platform_admin', 'Platform admin', 'platform', '{}'), ('platform_operator', 'Platform operator', 'platform', '{}'),
  ('platform_viewer', 'Platform viewer', 'platform', '{}'), ('merchant_owner', 'Merchant owner', 'merchant', '{}'),
  ('merchant_finance', 'Merchant finance', 'merchant', '{}'), ('merchant_developer', 'Merchant developer', 'merchant', '{}'),
  ('merchant_support', 'Merchant support', 'merchant', '{}'), ('merchant_viewer', 'Merchant viewer', 'merchant', '{}')
ON CONFLICT ("name") DO UPDATE SET "code" = EXCLUDED."code", "scope" = EXCLUDED."scope";--> statement-breakpoint
UPDATE "users" u SET "role_id" = (SELECT "id" FROM "roles" WHERE "code" = CASE
    WHEN u."merchant_id" IS NULL AND r."name" = 'admin' THEN 'platform_admin'
    WHEN u."merchant_id" IS NULL THEN 'platform_viewer'
    WHEN r."name" = 'owner' THEN 'merchant_owner'
    WHEN r."name" = 'support' THEN 'merchant_support'
    ELSE 'merchant_viewer' END)
  FROM "roles" r WHERE r."id" = u."role_id" AND r."code" IS NULL AND r."name" IN ('admin', 'owner', 'support', 'viewer');--> statement-breakpoint
DELETE FROM "roles" r WHERE r."code" IS NULL AND r."name" IN ('admin', 'owner', 'support', 'viewer')
  AND NOT EXISTS (SELECT 1 FROM "users" u WHERE u."role_id" = r."id");--> statement-breakpoint
UPDATE "roles" r SET "scope" = CASE WHEN EXISTS (SELECT 1 FROM "users" u WHERE u."role_id" = r."id" AND u."merchant_id" IS NOT NULL)
    OR NOT EXISTS (SELECT 1 FROM "users" u WHERE u."role_id" = r."id") THEN 'merchant' ELSE 'platform' END
  WHERE r."code" IS NULL;--> statement-breakpoint
UPDATE "roles" SET "permissions" = ARRAY(SELECT p FROM unnest("permissions") p WHERE NOT p = ANY(ARRAY['merchant.rw.all', 'people.account', 'people.account.edit', 'report.read.provider', 'report.read.pool.balance', 'invoice.status.change', 'invoice.amount.change', 'invoice.provider.read', 'invoice.credentials.read', 'ticket.decision', 'terminal.create', 'terminal.attr.read', 'terminal.prod.change', 'settlement.create', 'invoice.retry']::text[]))
  WHERE "scope" = 'merchant';--> statement-breakpoint
UPDATE "users" u SET "role_id" = (SELECT "id" FROM "roles" WHERE "code" = 'platform_viewer')
  FROM "roles" r WHERE r."id" = u."role_id" AND u."merchant_id" IS NULL AND r."scope" = 'merchant';--> statement-breakpoint
ALTER TABLE "merchant_settings" ADD CONSTRAINT "merchant_settings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_merchant_at_idx" ON "audit_log" USING btree ("merchant_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_actor_at_idx" ON "audit_log" USING btree ("actor_user_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_action_at_idx" ON "audit_log" USING btree ("action","at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "roles_id_scope_uq" ON "roles" USING btree ("id","scope");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_scope_fk" FOREIGN KEY ("role_id","scope") REFERENCES "public"."roles"("id","scope") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_merchant_idx" ON "users" USING btree ("merchant_id");--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_code_unique" UNIQUE("code");--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_scope_check" CHECK ("roles"."scope" IN ('platform', 'merchant'));--> statement-breakpoint
-- A merchant role never holds a platform permission (docs/architecture.md, "Who is who"); contracts'
-- PLATFORM_PERMISSIONS, checked by a test.
ALTER TABLE "roles" ADD CONSTRAINT "roles_merchant_permissions_check" CHECK ("scope" = 'platform' OR NOT ("permissions" && ARRAY['merchant.rw.all', 'people.account', 'people.account.edit', 'report.read.provider', 'report.read.pool.balance', 'invoice.status.change', 'invoice.amount.change', 'invoice.provider.read', 'invoice.credentials.read', 'ticket.decision', 'terminal.create', 'terminal.attr.read', 'terminal.prod.change', 'settlement.create', 'invoice.retry']::text[]));--> statement-breakpoint
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
-- auto retry was one platform-wide setting: every merchant keeps the value it had
--> statement-breakpoint
INSERT INTO "merchant_settings" ("merchant_id", "key", "value")
  SELECT m."id", s."key", s."value" FROM "merchants" m CROSS JOIN "settings" s WHERE s."key" = 'settings.withdrawal.retry.auto.enable';--> statement-breakpoint
DELETE FROM "settings" WHERE "key" = 'settings.withdrawal.retry.auto.enable';