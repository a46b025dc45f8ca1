import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { sql, type SQL } from 'drizzle-orm';
import { maskRequisitesInText } from '@paydesk/contracts/masking';
import {
  STATEMENT_FIELDS,
  STATEMENT_OUTCOMES,
  STATEMENT_REFERENCE_MAX,
  STATEMENT_TIME_TOLERANCE_MS,
  type StatementCounts,
  type StatementField,
} from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { CURRENCY_SCALE, major } from '../../lib/csv-sql';
import { statementRows, type ParseRules, type StatementHeader } from './parse';

/*
 * Matching a statement against the books, set-based (docs/operations.md, "Provider statements"), in the upload's
 * transaction; no query runs per line.
 * 1. Staging: the file's cells as text in a temporary table, numbered in file order (`line_no`, the header being line
 *    1). On PostgreSQL the server's own CSV reader loads it (COPY … FORMAT csv, the file streamed as it is); on the
 *    embedded database, which takes no COPY FROM STDIN, csv-parse reads it (parse.ts) into INSERT … unnest batches.
 *    A file with a counterparty column is read by csv-parse on either database: the number is hashed and masked
 *    there (the hash is keyed: the database could not compute it), and never reaches the database.
 * 2. classify: one CREATE TEMPORARY TABLE … AS SELECT reads every line once: converts its cells, checks them (a line
 *    that breaks a rule is flagged `bad`; a cell that does not even convert fails the statement) and looks its
 *    reference up in the books with hash joins. A bad file is then named line and column by reading it with parse.ts
 *    (service.ts); the database's checks only decide that it is bad.
 * 3. Repeated references are marked on the classified lines.
 * 4. store: a card or phone number in an exception's reference is masked first (maskRequisitesInText, on the temporary
 *    table, which is neither logged nor kept; the lookups above used the reference as written), then the exceptions go
 *    to statement_lines, the matched lines to statement_matches (one row per 10,000 lines), the counts per day and
 *    currency to statement_days, and what the books hold for the period that no line found to statement_lines as
 *    BOOKS_ONLY. A million matched lines write about a hundred rows.
 *
 * The rules:
 * - IN: the provider's incoming payment with the line's reference (`incoming_payments` is unique per provider and
 *   reference). Same account, same amount, and reported within STATEMENT_TIME_TOLERANCE_MS of the line's time:
 *   MATCHED; otherwise MISMATCH, saying what differs. No such reference: STATEMENT_ONLY.
 * - OUT: a PAYOUT transaction on one of the provider's accounts whose id is the reference (the id the provider was
 *   given and answered for), else the payout of the withdrawal whose provider_invoice_id is the reference (its DONE
 *   attempt, else its latest). DONE, on the line's account, for the withdrawal's amount, answered within the
 *   tolerance of the line's time: MATCHED; otherwise MISMATCH. Neither: STATEMENT_ONLY.
 * - Counterparty: an OUT line that names one (its lookup hash) is compared with the requisite its payout went to (the
 *   withdrawal's credential_hash), by hash, never decrypting: another number, or none on the books, is a MISMATCH
 *   saying so (the masked number the books hold), whatever else agrees: money the bank sent elsewhere than the books
 *   say must reach a person, not pass as matched. An IN line's counterparty (the payer) is kept, not compared: a
 *   deposit's requisite is the account's own, the one the customer paid to, and the books do not know the payer's.
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
/** The classified lines (until the upload's transaction ends): the references as written, for the books' own use. */
export const CLASSIFIED = 'statement_classified';
const BOOKS_ONLY_IN = 'statement_books_only_in';
/** Matched lines per row of statement_matches. */
export const MATCH_CHUNK = 10_000;

const COLUMN: Record<StatementField, string> = {
  occurredAt: 'occurred_at',
  accountId: 'account_id',
  amount: 'amount',
  direction: 'direction',
  reference: 'reference',
};

/**
 * The staging table for a file with this header, dropped when the transaction ends: a text column per field, the
 * counterparty's hash and masked form (parse.ts), and one per other column of the file (read, never used).
 */
export async function createStaging(tx: Tx, header: StatementHeader) {
  const extra = Array.from({ length: header.width }, (_, i) => i)
    .filter((i) => !STATEMENT_FIELDS.some((f) => header.at[f] === i) && header.counterparty !== i)
    .map((i) => `, x${i} text`)
    .join('');
  await tx.execute(
    sql.raw(`CREATE TEMPORARY TABLE ${STAGING} (line_no int GENERATED BY DEFAULT AS IDENTITY (START WITH 2),
      occurred_at text, account_id text, amount text, direction text, reference text, counterparty_hash text,
      counterparty_masked text${extra}) ON COMMIT DROP`),
  );
}

/**
 * PostgreSQL: the file as it is into COPY (CSV, its header skipped), its columns in the file's order. Not for a file
 * with a counterparty column: its numbers would reach the database (insertFile hashes them first).
 */
export async function copyFile(client: pg.PoolClient, file: string, header: StatementHeader) {
  if (header.counterparty !== null) throw new Error('a file naming counterparties is not copied as it is');
  const columns = Array.from({ length: header.width }, (_, i) => {
    const field = STATEMENT_FIELDS.find((f) => header.at[f] === i);
    return field ? COLUMN[field] : `x${i}`;
  });
  await pipeline(
    fs.createReadStream(file),
    client.query(copyFrom(`COPY ${STAGING} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv, HEADER true)`)),
  );
}

/**
 * The embedded database, and a file with a counterparty column on either: the file read and checked by parse.ts (a
 * bad line throws there, naming itself; a counterparty leaves it hashed and masked), loaded by one INSERT … unnest per
 * 5,000 lines.
 */
export async function insertFile(client: pg.PoolClient, file: string, rules: ParseRules, rowsPerInsert = 5_000) {
  const source = fs.createReadStream(file);
  try {
    for await (const rows of statementRows(source, rules, rowsPerInsert)) {
      await client.query(
        `INSERT INTO ${STAGING} (line_no, occurred_at, account_id, amount, direction, reference, counterparty_hash,
           counterparty_masked)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
           $8::text[])`,
        [
          rows.map((r) => r.lineNo),
          rows.map((r) => r.occurredAt),
          rows.map((r) => String(r.accountId)),
          rows.map((r) => String(r.amount)),
          rows.map((r) => r.direction),
          rows.map((r) => r.reference),
          rows.map((r) => r.counterpartyHash),
          rows.map((r) => r.counterpartyMasked),
        ],
      );
    }
  } finally {
    source.destroy();
  }
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

/**
 * Every staged line converted, checked and looked up in the books, into a temporary table. Throws when a cell does
 * not convert (a date, an account id, an amount): the file is bad. Returns the first line that breaks a rule, if any.
 */
export async function classifyLines(tx: Tx, s: MatchScope): Promise<number | null> {
  // the planner's row counts for the staged file (a temporary table has none until analysed)
  await tx.execute(sql.raw(`ANALYZE ${STAGING}`));
  const accounts = sql`${`{${s.accounts.join(',')}}`}::int[]`;
  const tol = toleranceSql();
  await tx.execute(sql`
    CREATE TEMPORARY TABLE ${sql.raw(CLASSIFIED)} ON COMMIT DROP AS
    WITH
    acc AS (SELECT a.id, pm.currency_id FROM provider_accounts a JOIN payment_methods pm ON pm.id = a.payment_method_id
            WHERE a.id = ANY(${accounts})),
    -- a payout named by its transaction id (the id as text: a line's reference is compared as written, lower case)
    pay AS (
      SELECT pt.id::text AS ref, pt.id, pt.account_id, pt.status, pt.status_date, i.amount, i.credential_hash,
        i.credential_masked
      FROM provider_transactions pt JOIN invoices i ON i.id = pt.invoice_id
      WHERE pt.type = 'PAYOUT' AND pt.account_id = ANY(${accounts})),
    -- the cells converted once (materialised: the joins and checks below would convert them again at every use);
    -- the direction and reference as parse.ts reads them (trimmed, the direction upper case)
    s AS MATERIALIZED (
      SELECT st.line_no, st.occurred_at::timestamptz AS occurred_at, st.account_id::bigint AS account_id,
        st.amount::bigint AS amount,
        CASE WHEN st.direction IN ('IN', 'OUT') THEN st.direction ELSE upper(btrim(st.direction)) END AS direction,
        btrim(st.reference) AS reference, hashtext(btrim(st.reference)) AS ref_hash, st.counterparty_hash,
        st.counterparty_masked,
        -- ISO 8601 with its offset: a 'T' between date and time, and Z or ±hh:mm (±hhmm) at the end
        substr(st.occurred_at, 11, 1) = 'T' AND (right(st.occurred_at, 1) = 'Z'
          OR left(right(st.occurred_at, 6), 1) IN ('+', '-') OR left(right(st.occurred_at, 5), 1) IN ('+', '-'))
          AS at_ok
      FROM ${sql.raw(STAGING)} st),
    -- OUT lines that name a withdrawal by its provider invoice id: its DONE payout attempt, else its latest
    byref AS (
      SELECT DISTINCT ON (i.provider_invoice_id) i.provider_invoice_id AS reference, px.id, px.account_id, px.status,
        px.status_date, i.amount, i.credential_hash, i.credential_masked
      FROM invoices i JOIN provider_transactions px ON px.invoice_id = i.id AND px.type = 'PAYOUT'
      WHERE i.flow_type = 'WITHDRAWAL' AND px.account_id = ANY(${accounts})
        -- (the staging read again rather than \`s\`, which would then be materialised: a superset, trimmed)
        AND i.provider_invoice_id IN (SELECT btrim(reference) FROM ${sql.raw(STAGING)} WHERE direction <> 'IN')
      ORDER BY i.provider_invoice_id, (px.status = 'DONE') DESC, px.attempt DESC, px.create_date DESC)
    SELECT l.*,
      CASE WHEN l.book_id IS NULL THEN 'STATEMENT_ONLY' WHEN l.differs <> '' THEN 'MISMATCH' ELSE 'MATCHED' END
        AS outcome,
      NULL::int AS repeated_from
    FROM (
      SELECT s.line_no, s.occurred_at, s.account_id::int AS account_id, s.amount, s.direction, s.reference, s.ref_hash,
        -- what statement_lines keeps of the reference: a card or phone number in it masked (maskReferences)
        s.reference AS shown_reference, s.counterparty_hash, s.counterparty_masked, a.currency_id,
        NOT coalesce(s.at_ok AND a.id IS NOT NULL AND s.amount > 0 AND s.amount <= ${Number.MAX_SAFE_INTEGER}
          AND s.direction IN ('IN', 'OUT') AND s.reference <> '' AND length(s.reference) <= ${STATEMENT_REFERENCE_MAX},
          false) AS bad,
        b.id AS book_id, b.kind,
        concat_ws('; ',
          CASE WHEN b.account_id <> s.account_id THEN 'the books have it on account ' || b.account_id END,
          CASE WHEN b.amount <> s.amount THEN 'the books have the amount ' || (
            SELECT ${sql.raw(major('b.amount'))} || ' ' || c.code FROM ${sql.raw(CURRENCY_SCALE)} c
            WHERE c.id = a.currency_id) END,
          CASE WHEN b.status <> 'DONE' THEN 'the payout is ' || b.status || ' on the books' END,
          CASE WHEN b.status = 'DONE' AND (b.at < s.occurred_at - ${tol} OR b.at > s.occurred_at + ${tol})
               THEN 'the books have it at ' || ${isoSql('b.at')} END,
          -- the payout's requisite and the line's counterparty, compared by their keyed hashes
          CASE WHEN s.direction = 'OUT' AND s.counterparty_hash IS NOT NULL AND b.id IS NOT NULL
                 AND b.credential_hash IS DISTINCT FROM s.counterparty_hash
               THEN coalesce('the books paid it to another card or phone: ' || b.credential_masked,
                 'the books hold no card or phone for this payout') END) AS differs
      FROM s
      LEFT JOIN acc a ON a.id = s.account_id
      LEFT JOIN incoming_payments ip
        ON s.direction = 'IN' AND ip.provider_id = ${s.providerId} AND ip.reference = s.reference
      LEFT JOIN pay
        ON s.direction = 'OUT' AND pay.ref = CASE WHEN length(s.reference) = 36 THEN lower(s.reference) END
      LEFT JOIN byref ON s.direction = 'OUT' AND pay.id IS NULL AND byref.reference = s.reference
      CROSS JOIN LATERAL (SELECT
        coalesce(ip.id, pay.id, byref.id) AS id,
        coalesce(ip.account_id, pay.account_id, byref.account_id) AS account_id,
        coalesce(ip.amount, pay.amount, byref.amount) AS amount,
        CASE WHEN ip.id IS NOT NULL THEN 'DONE' ELSE coalesce(pay.status, byref.status) END AS status,
        coalesce(ip.occurred_at, pay.status_date, byref.status_date) AS at,
        CASE WHEN ip.id IS NOT NULL THEN 'I' WHEN pay.id IS NOT NULL THEN 'O' ELSE 'P' END AS kind,
        CASE WHEN pay.id IS NOT NULL THEN pay.credential_hash ELSE byref.credential_hash END AS credential_hash,
        CASE WHEN pay.id IS NOT NULL THEN pay.credential_masked ELSE byref.credential_masked END AS credential_masked) b
    ) l`);
  const bad = await tx.execute<{ line: number | null }>(
    sql.raw(`SELECT min(line_no) AS line FROM ${CLASSIFIED} WHERE bad`),
  );
  const first = bad.rows[0]?.line;
  if (first !== null && first !== undefined) return Number(first);
  // references the file repeats (same direction): grouped by their 4-byte hash first, so that a million distinct
  // references make a small hash table; the few groups it finds are checked on the text itself
  await tx.execute(
    sql.raw(`
    UPDATE ${CLASSIFIED} c SET repeated_from = d.first_line, outcome = 'MISMATCH'
    FROM (
      SELECT s.direction, s.reference, min(s.line_no) AS first_line
      FROM ${CLASSIFIED} s
      JOIN (SELECT direction, ref_hash FROM ${CLASSIFIED} GROUP BY 1, 2 HAVING count(*) > 1) h
        ON h.direction = s.direction AND h.ref_hash = s.ref_hash
      GROUP BY 1, 2 HAVING count(*) > 1) d
    WHERE c.direction = d.direction AND c.reference = d.reference AND c.line_no <> d.first_line`),
  );
  return null;
}

/** `INSERT … RETURNING outcome` counted per outcome, in the same statement. */
async function insertCounted(tx: Tx, insert: SQL): Promise<Partial<StatementCounts>> {
  const res = await tx.execute<{ outcome: keyof StatementCounts; n: number }>(
    sql`WITH ins AS (${insert} RETURNING outcome) SELECT outcome, count(*)::int AS n FROM ins GROUP BY outcome`,
  );
  return Object.fromEntries(res.rows.map((r) => [r.outcome, Number(r.n)]));
}

/** At least ten digits with at most one separator between two of them: what may hold a card or phone number. */
const MAY_HOLD_REQUISITE = `'[0-9]([ ()-]?[0-9]){9}'`;
/** References read per FETCH, and masked ones held before they are written back. */
const MASK_FETCH = 5_000;
const MASK_FLUSH = 100_000;

/**
 * The card and phone numbers in a temporary table's text column masked in place (maskRequisitesInText): the rows that
 * may hold one, read through a cursor, and those the masking changes written back by key. Only a temporary table:
 * neither logged nor kept, so the numbers go no further than the upload's transaction.
 */
async function maskReferences(tx: Tx, table: string, key: string, column: string, where = 'true') {
  const client = connectionOf(tx);
  let keys: number[] = [];
  let values: string[] = [];
  const flush = async () => {
    if (!keys.length) return;
    await client.query(
      `UPDATE ${table} t SET ${column} = u.v FROM unnest($1::bigint[], $2::text[]) AS u(k, v) WHERE t.${key} = u.k`,
      [keys, values],
    );
    keys = [];
    values = [];
  };
  await tx.execute(
    sql.raw(`DECLARE statement_refs NO SCROLL CURSOR FOR
      SELECT ${key} AS k, ${column} AS v FROM ${table} WHERE (${where}) AND ${column} ~ ${MAY_HOLD_REQUISITE}`),
  );
  for (;;) {
    const res = await tx.execute<{ k: number | string; v: string }>(sql.raw(`FETCH ${MASK_FETCH} FROM statement_refs`));
    for (const r of res.rows) {
      const masked = maskRequisitesInText(r.v);
      if (masked === r.v) continue;
      keys.push(Number(r.k));
      values.push(masked);
    }
    if (keys.length >= MASK_FLUSH) await flush();
    if (res.rows.length < MASK_FETCH) break;
  }
  await tx.execute(sql.raw('CLOSE statement_refs'));
  await flush();
}

/** The classified lines stored (exceptions, matched chunks, days): the count per outcome. */
export async function storeLines(tx: Tx, s: MatchScope): Promise<Partial<StatementCounts>> {
  const id = sql`${s.statementId}::uuid`;
  const classified = sql.raw(CLASSIFIED);
  // matched lines keep no reference (theirs is the books' record's)
  await maskReferences(tx, CLASSIFIED, 'line_no', 'shown_reference', `outcome <> 'MATCHED'`);
  await tx.execute(sql`
    INSERT INTO statement_lines (statement_id, line_no, occurred_at, account_id, amount, direction, reference,
      counterparty_hash, counterparty_masked, outcome, incoming_id, transaction_id, detail)
    SELECT ${id}, line_no, occurred_at, account_id, amount, direction, shown_reference, counterparty_hash,
      counterparty_masked, outcome,
      CASE WHEN repeated_from IS NULL AND direction = 'IN' THEN book_id END,
      CASE WHEN repeated_from IS NULL AND direction = 'OUT' THEN book_id END,
      CASE WHEN repeated_from IS NOT NULL THEN 'the reference is repeated: first on line ' || repeated_from
           WHEN book_id IS NULL THEN NULL
           ELSE nullif(differs, '') END
    FROM ${classified} WHERE outcome <> 'MATCHED' ORDER BY line_no`);
  // one pass per chunk: the arrays of a group take its rows in the same order (the counterparties' too, when a line of
  // the chunk named one)
  await tx.execute(sql`
    INSERT INTO statement_matches (statement_id, chunk, line_nos, occurred_at, kinds, book_ids, counterparties,
      counterparty_hashes)
    SELECT ${id}, line_no / ${MATCH_CHUNK}, array_agg(line_no), array_agg(occurred_at), string_agg(kind, ''),
      array_agg(book_id),
      CASE WHEN bool_or(counterparty_hash IS NOT NULL) THEN array_agg(counterparty_masked) END,
      CASE WHEN bool_or(counterparty_hash IS NOT NULL) THEN array_agg(counterparty_hash) END
    FROM ${classified} WHERE outcome = 'MATCHED' GROUP BY 2`);
  const days = await tx.execute<{ lines: number; matched: number; statement_only: number; mismatches: number }>(sql`
    WITH ins AS (
      INSERT INTO statement_days (statement_id, day, currency_id, lines, matched, statement_only, mismatches, amount_in,
        amount_out)
      SELECT ${id}, (occurred_at AT TIME ZONE 'UTC')::date, currency_id, count(*),
        count(*) FILTER (WHERE outcome = 'MATCHED'), count(*) FILTER (WHERE outcome = 'STATEMENT_ONLY'),
        count(*) FILTER (WHERE outcome = 'MISMATCH'),
        coalesce(sum(amount) FILTER (WHERE direction = 'IN'), 0), coalesce(sum(amount) FILTER (WHERE direction = 'OUT'), 0)
      FROM ${classified} GROUP BY 2, 3
      RETURNING matched, statement_only, mismatches)
    SELECT coalesce(sum(matched), 0)::int AS matched, coalesce(sum(statement_only), 0)::int AS statement_only,
      coalesce(sum(mismatches), 0)::int AS mismatches FROM ins`);
  const d = days.rows[0]!;
  return { MATCHED: Number(d.matched), STATEMENT_ONLY: Number(d.statement_only), MISMATCH: Number(d.mismatches) };
}

/**
 * What the books hold for the period that no line of the statement found (read against the classified lines: no pass
 * over what was stored): BOOKS_ONLY entries, without line numbers. An incoming payment's reference is the provider's,
 * as it reported it: a card or phone number in it is masked on a temporary table before the entry is written. Returns
 * how many.
 */
export async function addBooksOnly(tx: Tx, s: MatchScope): Promise<number> {
  const accounts = sql`${`{${s.accounts.join(',')}}`}::int[]`;
  const from = s.periodFrom.toISOString();
  const to = s.periodTo.toISOString();
  const classified = sql.raw(CLASSIFIED);
  const booksOnlyIn = sql.raw(BOOKS_ONLY_IN);
  await tx.execute(sql`
    CREATE TEMPORARY TABLE ${booksOnlyIn} ON COMMIT DROP AS
    SELECT row_number() OVER (ORDER BY ip.occurred_at, ip.id) AS n, ip.id, ip.occurred_at, ip.account_id, ip.amount,
      ip.reference, ip.status
    FROM incoming_payments ip
    WHERE ip.provider_id = ${s.providerId} AND ip.occurred_at >= ${from}::timestamptz AND ip.occurred_at < ${to}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM ${classified} l WHERE l.direction = 'IN' AND l.reference = ip.reference)`);
  await maskReferences(tx, BOOKS_ONLY_IN, 'n', 'reference');
  const incoming = await insertCounted(
    tx,
    sql`
    INSERT INTO statement_lines (statement_id, line_no, occurred_at, account_id, amount, direction, reference, outcome,
      incoming_id, detail)
    SELECT ${s.statementId}::uuid, NULL, b.occurred_at, b.account_id, b.amount, 'IN', b.reference, 'BOOKS_ONLY',
      b.id, 'reported as arrived by the provider (' || lower(b.status) || '), not on the statement'
    FROM ${booksOnlyIn} b ORDER BY b.n`,
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
      AND NOT EXISTS (SELECT 1 FROM ${classified} l WHERE l.direction = 'OUT' AND l.book_id = pt.id)
      AND NOT (i.provider_invoice_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM ${classified} l WHERE l.direction = 'OUT' AND l.reference = i.provider_invoice_id))
    ORDER BY pt.status_date, pt.id`,
  );
  return (incoming.BOOKS_ONLY ?? 0) + (payouts.BOOKS_ONLY ?? 0);
}

/** Counts per outcome with every outcome present (0 when none). */
export const fullCounts = (c: Partial<StatementCounts>): StatementCounts =>
  Object.fromEntries(STATEMENT_OUTCOMES.map((o) => [o, c[o] ?? 0])) as StatementCounts;
