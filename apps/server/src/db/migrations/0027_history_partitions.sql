-- The history tables become range-partitioned by month of their time column: ledger_entries (created_at),
-- invoice_status_events (status_date), event_log (event_time), callback_attempts (attempted_at), audit_log (at).
-- Each table as it is, with its rows, becomes the first partition of a new partitioned table of the same name: it
-- holds everything before the first of next month (UTC; of this month when the table is empty, a new installation),
-- and months from then on get a partition each, created ahead by history_partitions_ensure (the history-partitions
-- worker; this migration creates them up to three months ahead). Nothing is copied: the old table is renamed and
-- attached.
--
-- Lock impact (docs/operations.md, "Partitioned history"): the migration first takes the ACCESS EXCLUSIVE lock of the
-- five tables and of those their foreign keys point at (invoices, merchants, terminals, currencies, provider accounts,
-- callbacks) until it commits, so nearly every request waits for its length, which is what follows per table: the new primary key (id and the time column) is one index build over the table, and the attach one scan to
-- prove that every row falls before the first partition's bound. A large installation builds the index beforehand
-- without blocking anyone, and the migration takes it over instead of building it:
--   CREATE UNIQUE INDEX CONCURRENTLY ledger_entries_id_created_at_uq ON ledger_entries (id, created_at);
-- (likewise invoice_status_events_id_status_date_uq, event_log_id_event_time_uq,
-- callback_attempts_id_attempted_at_uq, audit_log_id_at_uq). The other indexes, foreign keys, CHECKs and the column
-- defaults (the id sequences) are moved over as they are, without a rebuild; the statement triggers (ledger day
-- totals, callback attempt hours, the audit's TRUNCATE guard) move to the partitioned table, and its row triggers
-- (the audit's UPDATE/DELETE guard) are cloned onto every partition.
--
-- The ledger becomes append-only as the audit trail is (UPDATE, DELETE and TRUNCATE refused), and a ledger month can
-- be closed once over: its sums per balance key kept in ledger_closed_sums and its day totals summed into
-- ledger_month_totals, new entries in it refused, so that the reconciliation and the all-time figures read the open
-- months only (ledger/closed-months.ts).
CREATE TABLE "history_partitions" (
	"partition" text PRIMARY KEY NOT NULL,
	"parent" text NOT NULL,
	"from_at" timestamp with time zone,
	"to_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	"archive_file" text,
	"archive_sha256" text,
	"archive_rows" bigint,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ledger_closed_sums" (
	"partition" text NOT NULL,
	"key" text NOT NULL,
	"book" text NOT NULL,
	"currency_id" integer NOT NULL,
	"entries" bigint NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "ledger_closed_sums_partition_key_pk" PRIMARY KEY("partition","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_month_totals" (
	"merchant_id" uuid NOT NULL,
	"currency_id" integer NOT NULL,
	"book" text NOT NULL,
	"terminal_id" uuid,
	"month" date NOT NULL,
	"deposits" bigint NOT NULL,
	"withdrawals" bigint NOT NULL,
	"fees" bigint NOT NULL,
	"settlements" bigint NOT NULL,
	"net" bigint NOT NULL,
	"holds" bigint NOT NULL,
	CONSTRAINT "ledger_month_totals_uq" UNIQUE NULLS NOT DISTINCT("merchant_id","currency_id","book","terminal_id","month")
);
--> statement-breakpoint
CREATE INDEX "history_partitions_parent_idx" ON "history_partitions" USING btree ("parent","to_at");
--> statement-breakpoint
-- A TRUNCATE names the table it empties: the partitioned table's guard does not see one of a partition, which gets
-- its own (the ledger and the audit trail).
CREATE FUNCTION "history_truncate_guard"("parent" text, "part" text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF parent IN ('audit_log', 'ledger_entries') THEN
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      parent || '_no_truncate', part, CASE parent WHEN 'audit_log' THEN 'audit_log_append_only' ELSE 'ledger_append_only' END);
  END IF;
END
$$;
--> statement-breakpoint
-- The default partition of `parent`, `<parent>_default`: a row dated after the last month that has a partition lands
-- there instead of failing (a payment is never refused for a missing partition). Normally empty: the months are
-- created ahead, and history_partition_add moves any rows it holds into their month's partition when it is created.
CREATE FUNCTION "history_default_add"("parent" text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', parent || '_default', parent);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I DEFAULT', parent, parent || '_default');
  PERFORM history_truncate_guard(parent, parent || '_default');
END
$$;
--> statement-breakpoint
-- The partition of `parent` for the UTC month that `month` falls in, created if missing. Created on its own and then
-- attached, which holds the parent with a SHARE UPDATE EXCLUSIVE lock only (reads and writes go on; the default
-- partition is scanned, empty as it normally is); the attach clones the parent's indexes, foreign keys and row
-- triggers onto it. When the default partition holds rows of that month (the months were not created ahead in time),
-- it is detached, the month's partition and a new default attached, and its rows copied into them straight (the
-- parent's statement triggers, which counted them when they were written, do not fire again), then it is dropped.
-- Returns the partition's name.
CREATE FUNCTION "history_partition_add"("parent" text, "month" timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  from_at timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  to_at timestamptz := (date_trunc('month', month AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  name text := parent || '_' || to_char(month AT TIME ZONE 'UTC', 'YYYY_MM');
  col text;
  dflt text := parent || '_default';
  moving boolean;
BEGIN
  IF EXISTS (SELECT 1 FROM history_partitions p WHERE p.partition = name) THEN
    RETURN name;
  END IF;
  SELECT a.attname INTO col FROM pg_partitioned_table pt
    JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]
    WHERE pt.partrelid = parent::regclass;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= %L AND %I < %L)', dflt, col, from_at, col, to_at)
    INTO moving;
  IF moving THEN
    EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', parent, dflt);
    EXECUTE format('ALTER TABLE %I RENAME TO %I', dflt, dflt || '_moving');
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, from_at, to_at);
  PERFORM history_truncate_guard(parent, name);
  IF moving THEN
    PERFORM history_default_add(parent);
    EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE %I >= %L AND %I < %L', name, dflt || '_moving', col, from_at,
      col, to_at);
    EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE NOT (%I >= %L AND %I < %L)', dflt, dflt || '_moving', col,
      from_at, col, to_at);
    EXECUTE format('DROP TABLE %I', dflt || '_moving');
  END IF;
  INSERT INTO history_partitions (partition, parent, from_at, to_at) VALUES (name, parent, from_at, to_at);
  RETURN name;
END
$$;
--> statement-breakpoint
-- Creates the missing monthly partitions of every history table up to the one `until` falls in (months follow the
-- newest partition of each table, without gaps). Several processes may call it at once: they take turns. Returns how
-- many partitions it created.
CREATE FUNCTION "history_partitions_ensure"("until" timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  tbl text;
  last timestamptz;
  created integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(7385019264);
  FOREACH tbl IN ARRAY ARRAY['ledger_entries', 'invoice_status_events', 'event_log', 'callback_attempts', 'audit_log'] LOOP
    SELECT max(p.to_at) INTO last FROM history_partitions p WHERE p.parent = tbl;
    WHILE last <= until LOOP
      PERFORM history_partition_add(tbl, last);
      created := created + 1;
      last := (date_trunc('month', last AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
    END LOOP;
  END LOOP;
  RETURN created;
END
$$;
--> statement-breakpoint
-- The ledger is append-only, as the audit trail is: a correction is a new posting, never a changed or removed entry
-- (and a closed month's sums, ledger/closed-months.ts, stay true).
CREATE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP;
END
$$;
--> statement-breakpoint
-- On a closed ledger month's partition (ledger/closed-months.ts): its sums are kept, so it takes no new entry.
CREATE FUNCTION "ledger_month_closed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger month of % is closed (%): a new entry is dated now', NEW.created_at, TG_TABLE_NAME;
END
$$;
--> statement-breakpoint
-- Turns `parent` (its column `col` the partition key) into a partitioned table whose first partition is the table as
-- it was. Used by this migration only.
CREATE FUNCTION "history_partition_existing"("parent" text, "col" text, "pk" text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  has_rows integer;
  bound timestamptz;
  old text;
  prebuilt text := parent || '_id_' || col || '_uq';
  prebuilt_index regclass := to_regclass(parent || '_id_' || col || '_uq');
  indexes text[];
  fks text[];
  triggers text[];
  d text;
  r record;
BEGIN
  -- a table with rows may have some of this month: it holds them until next month; an empty one (a new installation)
  -- ends where this month's partition begins, so that the months before can be closed (ledger/closed-months.ts)
  EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM %I LIMIT 1) t', parent) INTO has_rows;
  bound := (date_trunc('month', now() AT TIME ZONE 'UTC') + has_rows * interval '1 month') AT TIME ZONE 'UTC';
  old := parent || '_until_' || to_char(bound AT TIME ZONE 'UTC', 'YYYY_MM');
  -- what the table has, its definitions read while they still name it
  SELECT coalesce(array_agg(pg_get_indexdef(i.indexrelid)), '{}') INTO indexes FROM pg_index i
    WHERE i.indrelid = parent::regclass AND NOT i.indisprimary AND i.indexrelid IS DISTINCT FROM prebuilt_index;
  SELECT coalesce(array_agg(format('ALTER TABLE %I ADD CONSTRAINT %I %s', parent, c.conname, pg_get_constraintdef(c.oid))), '{}')
    INTO fks FROM pg_constraint c WHERE c.conrelid = parent::regclass AND c.contype = 'f';
  SELECT coalesce(array_agg(pg_get_triggerdef(t.oid)), '{}') INTO triggers FROM pg_trigger t
    WHERE t.tgrelid = parent::regclass AND NOT t.tgisinternal;

  EXECUTE format('ALTER TABLE %I RENAME TO %I', parent, old);
  FOR r IN SELECT t.tgname FROM pg_trigger t WHERE t.tgrelid = old::regclass AND NOT t.tgisinternal LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', r.tgname, old);
  END LOOP;
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', old, parent || '_pkey');
  FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = old::regclass LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.relname, left(old || '_' || r.relname, 63));
  END LOOP;
  IF prebuilt_index IS NULL THEN
    -- rows of the same id are the same row: the key is unique already, this builds its index
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (id, %I)', old, old || '_pkey', col);
  ELSE
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', old, old || '_pkey',
      left(old || '_' || prebuilt, 63));
  END IF;

  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (%I)', parent, old, col);
  EXECUTE format('ALTER SEQUENCE %I OWNED BY %I.id', parent || '_id_seq', parent);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (id, %I)', parent, pk, col);
  FOREACH d IN ARRAY indexes LOOP EXECUTE d; END LOOP;
  FOREACH d IN ARRAY fks LOOP EXECUTE d; END LOOP;
  FOREACH d IN ARRAY triggers LOOP EXECUTE d; END LOOP;
  -- takes over the old table's indexes, foreign keys and key, and scans it once for the bound
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', parent, old, bound);
  PERFORM history_truncate_guard(parent, old);
  PERFORM history_default_add(parent);
  INSERT INTO history_partitions (partition, parent, from_at, to_at) VALUES (old, parent, NULL, bound);
END
$$;
--> statement-breakpoint
-- Every lock the conversion needs, taken at once before it begins, and in the strongest mode it will need (a lock
-- raised later could deadlock with a request that read the table first): the five tables, and the tables their
-- foreign keys point at. Taken one after another while requests of a previous release still run, a transaction
-- holding one of them and waiting for another would deadlock with this migration. NOWAIT, all or none, tried again
-- every 20 ms for up to two minutes: the moment between two requests.
DO $$
BEGIN
  FOR attempt IN 1..6000 LOOP
    BEGIN
      LOCK TABLE invoices, merchants, terminals, currencies, provider_accounts, callbacks, ledger_entries,
        invoice_status_events, event_log, callback_attempts, audit_log IN ACCESS EXCLUSIVE MODE NOWAIT;
      RETURN;
    EXCEPTION WHEN lock_not_available THEN
      PERFORM pg_sleep(0.02);
    END;
  END LOOP;
  RAISE EXCEPTION 'the history tables stayed busy for two minutes: start this release again at a quieter moment';
END
$$;
--> statement-breakpoint
SELECT history_partition_existing('ledger_entries', 'created_at', 'ledger_entries_id_created_at_pk');
--> statement-breakpoint
SELECT history_partition_existing('invoice_status_events', 'status_date', 'invoice_status_events_id_status_date_pk');
--> statement-breakpoint
SELECT history_partition_existing('event_log', 'event_time', 'event_log_id_event_time_pk');
--> statement-breakpoint
SELECT history_partition_existing('callback_attempts', 'attempted_at', 'callback_attempts_id_attempted_at_pk');
--> statement-breakpoint
SELECT history_partition_existing('audit_log', 'at', 'audit_log_id_at_pk');
--> statement-breakpoint
DROP FUNCTION history_partition_existing(text, text, text);
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_change" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW
  EXECUTE FUNCTION "ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries" FOR EACH STATEMENT
  EXECUTE FUNCTION "ledger_append_only"();
--> statement-breakpoint
SELECT history_partitions_ensure(now() + interval '3 months');
