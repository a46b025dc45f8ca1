import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { sql, type SQL } from 'drizzle-orm';
import { STATEMENT_OUTCOMES, STATEMENT_TIME_TOLERANCE_MS, type StatementCounts } from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { CURRENCY_SCALE, major } from '../../lib/csv-sql';
import type { StatementRow } from './parse';

/*
 * Matching a statement against the books, set-based (docs/operations.md, "Provider statements"): the parsed lines are
 * staged in a temporary table of the upload's transaction (COPY on PostgreSQL, batches of INSERT … unnest on the
 * embedded database), then one INSERT … SELECT with joins classifies them all into statement_lines, and two more add
 * what the books hold for the period that no line named (BOOKS_ONLY). Each row of statement_lines is written once,
 * in file order; no query runs per line.
 *
 * The rules:
 * - IN: the provider's incoming payment with the line's reference (`incoming_payments` is unique per provider and
 *   reference). Same account, same amount, and reported within STATEMENT_TIME_TOLERANCE_MS of the line's time:
 *   MATCHED; otherwise MISMATCH, saying what differs. No such reference: STATEMENT_ONLY.
 * - OUT: a PAYOUT transaction on one of the provider's accounts whose id is the reference (the id the provider was
 *   given and answered for), else the payout of the withdrawal whose provider_invoice_id is the reference (its DONE
 *   attempt, else its latest). DONE, on the line's account, for the withdrawal's amount, answered within the
 *   tolerance of the line's time: MATCHED; otherwise MISMATCH. Neither: STATEMENT_ONLY.
 * - A reference the file repeats (same direction) is matched on its first line only; the later ones are MISMATCH.
 * - BOOKS_ONLY: the provider's incoming payments that occurred in the period, and its DONE payouts answered in the
 *   period, that no line of the statement found.
 */

/** The connection behind a Drizzle transaction (node-postgres): COPY and array parameters go to it directly. */
export function connectionOf(tx: Tx): pg.PoolClient {
  const client = (tx as unknown as { session?: { client?: pg.PoolClient } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('no connection behind the transaction');
  return client;
}

const STAGING = 'statement_staging';

/** The staging table, dropped when the transaction ends (commit or rollback). */
export async function createStaging(tx: Tx) {
  await tx.execute(
    sql.raw(`CREATE TEMPORARY TABLE ${STAGING} (line_no int NOT NULL, occurred_at timestamptz NOT NULL,
      account_id int NOT NULL, amount bigint NOT NULL, direction text NOT NULL, reference text NOT NULL,
      ref_uuid uuid) ON COMMIT DROP`),
  );
}

export type Stager = {
  write(rows: StatementRow[]): Promise<void>;
  end(): Promise<void>;
  /** Stops a load half way (a bad line): the COPY is failed, so that the transaction can roll back. */
  abort(): Promise<void>;
};

/** COPY's text format: backslash, tab and line breaks escaped. */
const ESCAPED = /[\\\t\n\r]/;
const copyText = (s: string) =>
  ESCAPED.test(s)
    ? s.replace(/[\\\t\n\r]/g, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\\\'))
    : s;

/** PostgreSQL: one COPY … FROM STDIN for the whole file, written batch by batch with its backpressure. */
export function copyStager(client: pg.PoolClient): Stager {
  const copy = client.query(
    copyFrom(`COPY ${STAGING} (line_no, occurred_at, account_id, amount, direction, reference, ref_uuid) FROM STDIN`),
  );
  let failed: Error | null = null;
  const settled = new Promise<void>((resolve, reject) => {
    copy.once('finish', resolve);
    copy.once('error', (err: Error) => {
      failed = err;
      reject(err);
    });
  });
  settled.catch(() => undefined);
  return {
    async write(rows) {
      if (failed) throw failed;
      let text = '';
      for (const r of rows) {
        text += `${r.lineNo}\t${r.occurredAt}\t${r.accountId}\t${r.amount}\t${r.direction}\t${copyText(r.reference)}\t${r.refUuid ?? '\\N'}\n`;
      }
      if (!copy.write(text)) await Promise.race([once(copy, 'drain'), settled]);
    },
    async end() {
      copy.end();
      await settled;
    },
    async abort() {
      if (!copy.destroyed) copy.destroy(new Error('statement upload stopped'));
      await settled.catch(() => undefined);
    },
  };
}

/**
 * The embedded database (no COPY FROM STDIN over its socket): one INSERT … unnest per 5,000 lines, seven parameters
 * whatever the count.
 */
export function insertStager(client: pg.PoolClient, rowsPerInsert = 5_000): Stager {
  let pending: StatementRow[] = [];
  const flush = async () => {
    if (!pending.length) return;
    const rows = pending;
    pending = [];
    await client.query(
      `INSERT INTO ${STAGING} (line_no, occurred_at, account_id, amount, direction, reference, ref_uuid)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::bigint[], $5::text[], $6::text[], $7::uuid[])`,
      [
        rows.map((r) => r.lineNo),
        rows.map((r) => r.occurredAt),
        rows.map((r) => r.accountId),
        rows.map((r) => r.amount),
        rows.map((r) => r.direction),
        rows.map((r) => r.reference),
        rows.map((r) => r.refUuid),
      ],
    );
  };
  return {
    async write(rows) {
      for (const r of rows) pending.push(r);
      if (pending.length >= rowsPerInsert) await flush();
    },
    end: flush,
    async abort() {
      pending = [];
    },
  };
}

export type MatchScope = {
  statementId: string;
  providerId: number;
  accounts: number[];
  periodFrom: Date;
  periodTo: Date;
};

const toleranceSql = () => sql.raw(`interval '${STATEMENT_TIME_TOLERANCE_MS / 1000} seconds'`);
/** A time as the details say it: 2026-03-01T10:15:00Z. */
const isoSql = (expr: string) => sql.raw(`to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);

/** `INSERT … RETURNING outcome` counted per outcome, in the same statement. */
async function insertCounted(tx: Tx, insert: SQL): Promise<Partial<StatementCounts>> {
  const res = await tx.execute<{ outcome: keyof StatementCounts; n: number }>(
    sql`WITH ins AS (${insert} RETURNING outcome) SELECT outcome, count(*)::int AS n FROM ins GROUP BY outcome`,
  );
  return Object.fromEntries(res.rows.map((r) => [r.outcome, Number(r.n)]));
}

/** Every staged line into statement_lines with its outcome, in file order: the count per outcome. */
export async function classifyLines(tx: Tx, s: MatchScope) {
  // the planner's row counts for the staged file (a temporary table has none until analysed)
  await tx.execute(sql.raw(`ANALYZE ${STAGING}`));
  const accounts = sql`${`{${s.accounts.join(',')}}`}::int[]`;
  const tol = toleranceSql();
  const staging = sql.raw(STAGING);
  return insertCounted(
    tx,
    sql`
    WITH
    -- references the file repeats (same direction): grouped by a 4-byte hash first, so that a million distinct
    -- references make a small hash table; the few groups it finds are checked on the text itself
    repeated AS (
      SELECT s.direction, s.reference, min(s.line_no) AS first_line
      FROM ${staging} s
      JOIN (SELECT direction, hashtext(reference) AS h FROM ${staging} GROUP BY 1, 2 HAVING count(*) > 1) c
        ON c.direction = s.direction AND c.h = hashtext(s.reference)
      GROUP BY 1, 2 HAVING count(*) > 1),
    -- OUT lines that name a withdrawal by its provider invoice id: its DONE payout attempt, else its latest
    byref AS (
      SELECT DISTINCT ON (i.provider_invoice_id) i.provider_invoice_id AS reference, px.id, px.account_id, px.status,
        px.status_date, i.amount
      FROM invoices i JOIN provider_transactions px ON px.invoice_id = i.id AND px.type = 'PAYOUT'
      WHERE i.flow_type = 'WITHDRAWAL' AND px.account_id = ANY(${accounts})
        AND i.provider_invoice_id IN (SELECT reference FROM ${staging} WHERE direction = 'OUT')
      ORDER BY i.provider_invoice_id, (px.status = 'DONE') DESC, px.attempt DESC, px.create_date DESC)
    INSERT INTO statement_lines (statement_id, line_no, occurred_at, account_id, amount, direction, reference, outcome,
      incoming_id, transaction_id, detail)
    SELECT ${s.statementId}::uuid, l.line_no, l.occurred_at, l.account_id, l.amount, l.direction, l.reference,
      CASE WHEN l.repeated_from IS NOT NULL THEN 'MISMATCH'
           WHEN l.book_id IS NULL THEN 'STATEMENT_ONLY'
           WHEN l.differs <> '' THEN 'MISMATCH'
           ELSE 'MATCHED' END,
      CASE WHEN l.repeated_from IS NULL AND l.direction = 'IN' THEN l.book_id END,
      CASE WHEN l.repeated_from IS NULL AND l.direction = 'OUT' THEN l.book_id END,
      CASE WHEN l.repeated_from IS NOT NULL THEN 'the reference is repeated: first on line ' || l.repeated_from
           WHEN l.book_id IS NULL THEN NULL
           ELSE nullif(l.differs, '') END
    FROM (
      SELECT s.line_no, s.occurred_at, s.account_id, s.amount, s.direction, s.reference, d.first_line AS repeated_from,
        b.id AS book_id,
        concat_ws('; ',
          CASE WHEN b.account_id <> s.account_id THEN 'the books have it on account ' || b.account_id END,
          CASE WHEN b.amount <> s.amount THEN 'the books have the amount ' || (
            SELECT ${sql.raw(major('b.amount'))} || ' ' || c.code FROM provider_accounts a
            JOIN payment_methods pm ON pm.id = a.payment_method_id JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = pm.currency_id
            WHERE a.id = s.account_id) END,
          CASE WHEN b.status <> 'DONE' THEN 'the payout is ' || b.status || ' on the books' END,
          CASE WHEN b.status = 'DONE' AND (b.at < s.occurred_at - ${tol} OR b.at > s.occurred_at + ${tol})
               THEN 'the books have it at ' || ${isoSql('b.at')} END) AS differs
      FROM ${staging} s
      LEFT JOIN repeated d ON d.direction = s.direction AND d.reference = s.reference AND d.first_line <> s.line_no
      LEFT JOIN incoming_payments ip
        ON s.direction = 'IN' AND ip.provider_id = ${s.providerId} AND ip.reference = s.reference
      LEFT JOIN provider_transactions pt
        ON s.direction = 'OUT' AND pt.id = s.ref_uuid AND pt.type = 'PAYOUT' AND pt.account_id = ANY(${accounts})
      LEFT JOIN invoices pti ON pti.id = pt.invoice_id
      LEFT JOIN byref ON s.direction = 'OUT' AND pt.id IS NULL AND byref.reference = s.reference
      CROSS JOIN LATERAL (SELECT
        coalesce(ip.id, pt.id, byref.id) AS id,
        coalesce(ip.account_id, pt.account_id, byref.account_id) AS account_id,
        coalesce(ip.amount, pti.amount, byref.amount) AS amount,
        CASE WHEN ip.id IS NOT NULL THEN 'DONE' ELSE coalesce(pt.status, byref.status) END AS status,
        coalesce(ip.occurred_at, pt.status_date, byref.status_date) AS at) b
    ) l
    ORDER BY l.line_no`,
  );
}

/**
 * What the books hold for the period that no line of the statement found (the same references classifyLines looks up,
 * read from the staging: no pass over statement_lines): BOOKS_ONLY entries, without line numbers. Returns how many.
 */
export async function addBooksOnly(tx: Tx, s: MatchScope): Promise<number> {
  const accounts = sql`${`{${s.accounts.join(',')}}`}::int[]`;
  const from = s.periodFrom.toISOString();
  const to = s.periodTo.toISOString();
  const incoming = await insertCounted(
    tx,
    sql`
    INSERT INTO statement_lines (statement_id, line_no, occurred_at, account_id, amount, direction, reference, outcome,
      incoming_id, detail)
    SELECT ${s.statementId}::uuid, NULL, ip.occurred_at, ip.account_id, ip.amount, 'IN', ip.reference, 'BOOKS_ONLY',
      ip.id, 'reported as arrived by the provider (' || lower(ip.status) || '), not on the statement'
    FROM incoming_payments ip
    WHERE ip.provider_id = ${s.providerId} AND ip.occurred_at >= ${from}::timestamptz AND ip.occurred_at < ${to}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM ${sql.raw(STAGING)} l WHERE l.direction = 'IN' AND l.reference = ip.reference)
    ORDER BY ip.occurred_at, ip.id`,
  );
  const payouts = await insertCounted(
    tx,
    sql`
    INSERT INTO statement_lines (statement_id, line_no, occurred_at, account_id, amount, direction, reference, outcome,
      transaction_id, detail)
    SELECT ${s.statementId}::uuid, NULL, pt.status_date, pt.account_id, i.amount, 'OUT', pt.id::text, 'BOOKS_ONLY',
      pt.id, 'paid out (DONE) on the books, not on the statement'
    FROM provider_transactions pt JOIN invoices i ON i.id = pt.invoice_id
    WHERE pt.type = 'PAYOUT' AND pt.status = 'DONE' AND pt.account_id = ANY(${accounts})
      AND pt.status_date >= ${from}::timestamptz AND pt.status_date < ${to}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM ${sql.raw(STAGING)} l WHERE l.direction = 'OUT' AND l.ref_uuid = pt.id)
      AND NOT (i.provider_invoice_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM ${sql.raw(STAGING)} l WHERE l.direction = 'OUT' AND l.reference = i.provider_invoice_id))
    ORDER BY pt.status_date, pt.id`,
  );
  return (incoming.BOOKS_ONLY ?? 0) + (payouts.BOOKS_ONLY ?? 0);
}

/** Counts per outcome with every outcome present (0 when none). */
export const fullCounts = (c: Partial<StatementCounts>): StatementCounts =>
  Object.fromEntries(STATEMENT_OUTCOMES.map((o) => [o, c[o] ?? 0])) as StatementCounts;
