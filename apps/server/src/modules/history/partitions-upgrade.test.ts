import { afterEach, describe, expect, it } from 'vitest';
import { runMigrations } from '../../db/create-db';
import { databaseBefore } from '../../../test/migrations-before';
import { HISTORY_TABLES } from './partitions';

/**
 * The history tables of a populated database become partitioned in place (migration 0027): every row is kept, in the
 * partition that holds everything before partitioning, and what the tables did they still do (ids from the same
 * sequences, the ledger's day totals, callback attempt hours, the audit trail's refusals). On PostgreSQL a writer
 * runs beside the migration, which measures how long the tables are held (docs/operations.md, "Partitioned history").
 * HISTORY_UPGRADE_INVOICES sets the size (each invoice: 3 ledger entries, 4 status events, 1 event, 2 callback
 * attempts; an audit record per 2 invoices).
 */
const INVOICES = Number(process.env.HISTORY_UPGRADE_INVOICES ?? 5000);
const postgres = process.env.DATABASE_URL;

let db: Awaited<ReturnType<typeof databaseBefore>> | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

/** Fills the tables as the previous release left them: history spread over the last 400 days. */
async function populate(q: (text: string) => Promise<unknown>) {
  await q(`INSERT INTO currencies (id, code, name, dimension) VALUES (1, 'UZS', 'Sum', 2)`);
  await q(
    `INSERT INTO merchants (id, name, webhook_secret) VALUES ('11111111-1111-4111-8111-111111111111', 'Old Shop', 'whsec_x')`,
  );
  await q(`INSERT INTO terminals (id, merchant_id, name, flow_type, currency_id)
    VALUES ('22222222-2222-4222-8222-222222222222', '11111111-1111-4111-8111-111111111111', 'T', 'DEPOSIT', 1)`);
  await q(`CREATE TEMP TABLE old_invoices AS
    SELECT g, gen_random_uuid() AS id, now() - (g % 400) * interval '1 day' - (g % 997) * interval '1 minute' AS at
    FROM generate_series(1, ${INVOICES}) g`);
  await q(`INSERT INTO invoices (id, merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount,
      currency_id, expires_at, created_at)
    SELECT id, '11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', 'ORD-' || g, 'form-' || g,
      'DEPOSIT', 'DONE', 1000 + g, 1, at + interval '1 hour', at FROM old_invoices`);
  await q(`INSERT INTO ledger_entries (tx_id, account, merchant_id, terminal_id, invoice_id, currency_id, amount, kind, created_at)
    SELECT tx, leg.account, '11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', i.id, 1,
      leg.amount, 'deposit', i.at
    FROM (SELECT *, gen_random_uuid() AS tx FROM old_invoices) i,
      LATERAL (VALUES ('provider_account', 1000 + i.g), ('merchant', -(980 + i.g)), ('fees', -20)) leg(account, amount)`);
  await q(`INSERT INTO invoice_status_events (invoice_id, status, status_date)
    SELECT i.id, s.status, i.at + s.n * interval '1 minute' FROM old_invoices i,
      (VALUES (0, 'NEW'), (1, 'IN_PROGRESS'), (2, 'PAYED'), (3, 'DONE')) s(n, status)`);
  await q(`INSERT INTO event_log (merchant_id, invoice_id, code, description, event_time)
    SELECT '11111111-1111-4111-8111-111111111111', id, 'STATUS', 'done', at FROM old_invoices`);
  await q(`INSERT INTO callbacks (id, invoice_id, merchant_id, url, payload, invoice_status, status, attempts)
    SELECT id, id, '11111111-1111-4111-8111-111111111111', 'https://shop.example/hooks', '{}'::jsonb, 'DONE',
      'DELIVERED', 2 FROM old_invoices`);
  await q(`INSERT INTO callback_attempts (callback_id, merchant_id, attempted_at, response_code)
    SELECT id, '11111111-1111-4111-8111-111111111111', at + a * interval '1 second', CASE a WHEN 1 THEN 500 ELSE 200 END
    FROM old_invoices, generate_series(1, 2) a`);
  await q(`INSERT INTO audit_log (at, actor_kind, action, target_type, target_id)
    SELECT at, 'system', 'invoice.status_changed', 'invoice', id::text FROM old_invoices WHERE g % 2 = 0`);
}

/** Per table: rows, and a fingerprint of their content (ids, times and one value), before and after. */
const fingerprint = (table: string, col: string) =>
  `SELECT '${table}' AS t, count(*)::text AS n, md5(string_agg(id::text || ${col}::text, ',' ORDER BY id)) AS h FROM ${table}`;

async function upgrade(opts: { prebuilt: boolean }) {
  db = await databaseBefore('_history_partitions', postgres ? { postgres } : {});
  const { dbh } = db;
  const q = (text: string) => dbh.pool.query(text);
  await populate(q);
  if (opts.prebuilt) {
    // what a large installation runs beforehand (docs/operations.md): the new keys' indexes, built beside the traffic
    for (const [table, col] of Object.entries(HISTORY_TABLES)) {
      await q(
        `CREATE UNIQUE INDEX ${dbh.kind === 'postgres' ? 'CONCURRENTLY ' : ''}${table}_id_${col}_uq ON ${table} (id, ${col})`,
      );
    }
  }
  const before = [];
  for (const [table, col] of Object.entries(HISTORY_TABLES))
    before.push((await dbh.pool.query(fingerprint(table, col))).rows[0]);
  const totals = (await q(`SELECT sum(net)::text AS net, count(*)::text AS days FROM ledger_day_totals`)) as {
    rows: { net: string; days: string }[];
  };
  const maxIds = (await q(
    `SELECT (SELECT max(id) FROM ledger_entries)::text AS ledger, (SELECT max(id) FROM audit_log)::text AS audit`,
  )) as {
    rows: { ledger: string; audit: string }[];
  };

  // a writer beside the migration (PostgreSQL; the embedded database has one connection): the longest a posting waited
  // is how long the migration held the ledger, the first table it takes and holds until it commits
  let writing = true;
  let longestWaitMs = 0;
  let writes = 0;
  const writer =
    dbh.kind === 'postgres'
      ? (async () => {
          while (writing) {
            const t0 = performance.now();
            // two legs that sum to zero, outside the merchant's day totals
            await dbh.pool.query(`INSERT INTO ledger_entries (tx_id, account, currency_id, amount, kind)
              SELECT tx, 'provider_account', 1, leg, 'writer' FROM gen_random_uuid() tx, (VALUES (1), (-1)) l(leg)`);
            longestWaitMs = Math.max(longestWaitMs, performance.now() - t0);
            writes++;
            await new Promise((r) => setTimeout(r, 5));
          }
        })()
      : Promise.resolve();
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  await runMigrations(dbh);
  const migrationMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 50));
  writing = false;
  await writer;
  console.log(
    `history partitions on ${dbh.kind}, ${INVOICES} invoices (${INVOICES * 3} ledger entries), prebuilt keys ${opts.prebuilt}: ` +
      `migration ${migrationMs.toFixed(0)} ms` +
      (dbh.kind === 'postgres'
        ? `, longest posting beside it ${longestWaitMs.toFixed(0)} ms (${writes} postings)`
        : ''),
  );
  return { dbh, q, before, totals: totals.rows[0]!, maxIds: maxIds.rows[0]!, writes };
}

describe('partitioning the history of a populated database', () => {
  it.each([{ prebuilt: false }, { prebuilt: true }])(
    'keeps every row and what the tables do (prebuilt keys: $prebuilt)',
    async ({ prebuilt }) => {
      const { dbh, q, before, totals, maxIds, writes } = await upgrade({ prebuilt });
      const rows = async <T>(text: string) => ((await q(text)) as { rows: T[] }).rows;

      // every row kept, each in the partition of everything before partitioning (the writer's too)
      for (const [i, [table, col]] of Object.entries(HISTORY_TABLES).entries()) {
        const [after] = await rows<{ n: string; h: string }>(fingerprint(table, col));
        if (table === 'ledger_entries' && writes) {
          expect(Number(after!.n)).toBe(Number(before[i]!.n) + 2 * writes);
        } else {
          expect(after).toEqual(before[i]);
        }
        const where = await rows<{ partition: string; n: string }>(
          `SELECT tableoid::regclass::text AS partition, count(*)::text AS n FROM ${table} GROUP BY 1`,
        );
        expect(where.map((w) => w.partition)).toEqual([
          expect.stringMatching(new RegExp(`^${table}_until_\\d{4}_\\d{2}$`)),
        ]);
        const [kind] = await rows<{ relkind: string }>(`SELECT relkind FROM pg_class WHERE relname = '${table}'`);
        expect(kind!.relkind).toBe('p');
      }
      if (prebuilt) {
        // the index built beforehand became the partition's key: no second build
        const keys = await rows<{ indexdef: string }>(
          `SELECT indexdef FROM pg_indexes WHERE tablename LIKE 'ledger_entries_until_%' AND indexname LIKE '%_pkey'`,
        );
        expect(keys).toHaveLength(1);
        const stray = await rows(`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%_id_created_at_uq'`);
        expect(stray).toEqual([]);
      }

      // the ledger's day totals and ids go on from where they were
      expect(
        (
          await rows<{ net: string; days: string }>(
            `SELECT sum(net)::text AS net, count(*)::text AS days FROM ledger_day_totals`,
          )
        )[0],
      ).toEqual(totals);
      const [leg] = await rows<{
        id: string;
      }>(`INSERT INTO ledger_entries (tx_id, account, merchant_id, currency_id, amount, kind)
        VALUES (gen_random_uuid(), 'merchant', '11111111-1111-4111-8111-111111111111', 1, -500, 'deposit') RETURNING id::text`);
      expect(BigInt(leg!.id)).toBeGreaterThan(BigInt(maxIds.ledger));
      expect((await rows<{ net: string }>(`SELECT sum(net)::text AS net FROM ledger_day_totals`))[0]!.net).toBe(
        String(BigInt(totals.net) + 500n),
      );
      // callback attempts still count into their hours
      const [hour] = await rows<{ attempts: number }>(
        `SELECT coalesce(sum(attempts), 0)::int AS attempts FROM callback_attempt_hours`,
      );
      await q(`INSERT INTO callback_attempts (callback_id, merchant_id, response_code)
        SELECT id, merchant_id, 200 FROM callbacks LIMIT 1`);
      expect(
        (await rows<{ attempts: number }>(`SELECT sum(attempts)::int AS attempts FROM callback_attempt_hours`))[0]!
          .attempts,
      ).toBe(hour!.attempts + 1);
      // the audit trail still refuses change, through the table and through any of its partitions
      const [first] = await rows<{ partition: string }>(
        `SELECT partition FROM history_partitions WHERE parent = 'audit_log' AND from_at IS NULL`,
      );
      const [next] = await rows<{ partition: string }>(
        `SELECT partition FROM history_partitions WHERE parent = 'audit_log' AND from_at IS NOT NULL ORDER BY from_at LIMIT 1`,
      );
      for (const statement of [
        `UPDATE audit_log SET reason = 'x'`,
        `DELETE FROM audit_log`,
        `TRUNCATE audit_log`,
        `DELETE FROM ${first!.partition}`,
        `TRUNCATE ${first!.partition}`,
        `TRUNCATE ${next!.partition}`,
      ]) {
        await expect(q(statement), statement).rejects.toThrow(/append-only/);
      }
      const [audit] = await rows<{ id: string }>(
        `INSERT INTO audit_log (actor_kind, action) VALUES ('system', 'database.restored') RETURNING id::text`,
      );
      expect(BigInt(audit!.id)).toBeGreaterThan(BigInt(maxIds.audit));
      expect(dbh.kind).toBe(postgres ? 'postgres' : 'pglite');
    },
    // populating takes about a minute a million invoices here
    300_000 + INVOICES * 0.6,
  );
});
