import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/create-db';
import { toExactInt, type Reconciliation } from '@paydesk/contracts';
import { LEDGER_OPEN_FROM_SQL, type Book } from './service';
import { holdsRequisitesSql } from '../engine/lifecycle';

/** The balance key of an entry in SQL: the same as ledger/service.ts balanceKey. */
export const BALANCE_KEY_SQL = sql.raw(`e.book || ':' || e.account || ':' ||
  CASE WHEN e.account = 'provider_account' THEN coalesce(e.provider_account_id::text, 'none')
       WHEN e.account = 'suspense' THEN 'platform'
       ELSE coalesce(e.merchant_id::text, 'none') END || ':' || e.currency_id`);

/** Sets every balance row to the sum of its entries (seeding and bulk loads write entries in bulk). */
export async function rebuildLedgerBalances(db: DbOrTx) {
  await db.execute(sql`
    INSERT INTO ledger_balances (key, book, account, merchant_id, provider_account_id, currency_id, balance)
    SELECT ${BALANCE_KEY_SQL}, e.book, e.account,
           CASE WHEN e.account IN ('provider_account', 'suspense') THEN NULL ELSE e.merchant_id END,
           CASE WHEN e.account = 'provider_account' THEN e.provider_account_id END,
           e.currency_id, SUM(e.amount)
    FROM ledger_entries e GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (key) DO UPDATE SET balance = excluded.balance`);
}

/** What a reconciliation finds (contracts: the monitoring response without its time). */
export type LedgerFindings = Omit<Reconciliation, 'checkedAt'>;

/**
 * The ledger's invariants, read from the database: every balance row equals the sum of its entries (and so does every
 * day total: drift keys `day:merchant:currency:book:terminal:day`, their net shown), suspense equals the unresolved
 * unmatched money (drift key `suspense:book:currency`: the balance held, the items' sum as entries), each account's
 * reservation equals its holding deposits (drift key `reserved:account`: the limit row's figure, the deposits' sum as
 * entries), and every book sums to zero per currency. Empty lists mean the books are right.
 *
 * Entries of closed months (closed-months.ts) are not read again: their sums per balance key, kept when the month
 * closed, stand for them, and their days were compared when it closed. What is read grows with the open months, not
 * with the history.
 */
export async function reconcileLedger(db: DbOrTx): Promise<LedgerFindings> {
  // read once, as a value, so that each statement's plan skips the closed months' partitions
  const from = (await db.execute<{ from: string }>(sql`SELECT ${LEDGER_OPEN_FROM_SQL}::text AS from`)).rows[0]!.from;
  const open = sql`e.created_at >= ${from}::timestamptz`;
  // the sums of the months closed before that bound only: a month another process closes while this runs (a statement
  // later, another snapshot) is still read from its entries, and not counted twice
  const closedSums = sql`(SELECT cs.* FROM ledger_closed_sums cs JOIN history_partitions hp ON hp.partition = cs.partition
    WHERE hp.closed_at IS NOT NULL AND hp.to_at <= ${from}::timestamptz)`;
  const drift = await db.execute<{ key: string; balance: string | null; entries: string | null }>(sql`
    WITH sums AS (
      SELECT key, SUM(entries) AS entries FROM (
        SELECT ${BALANCE_KEY_SQL} AS key, SUM(e.amount) AS entries FROM ledger_entries e WHERE ${open} GROUP BY 1
        UNION ALL SELECT key, entries FROM ${closedSums} c) s
      GROUP BY 1)
    SELECT coalesce(b.key, s.key) AS key, b.balance::text AS balance, s.entries::text AS entries
    FROM ledger_balances b FULL OUTER JOIN sums s ON s.key = b.key
    WHERE coalesce(b.balance, 0) <> coalesce(s.entries, 0)
    ORDER BY 1 LIMIT 100`);
  const days = await dayDrift(db, from, null);
  // suspense holds exactly the money that arrived unmatched and is not resolved yet
  const suspense = await db.execute<{ key: string; balance: string | null; entries: string | null }>(sql`
    WITH items AS (SELECT book, currency_id, SUM(amount) AS amount FROM incoming_payments
                   WHERE status = 'UNMATCHED' AND in_suspense GROUP BY 1, 2),
      held AS (SELECT book, currency_id, -balance AS amount FROM ledger_balances WHERE account = 'suspense')
    SELECT 'suspense:' || coalesce(h.book, i.book) || ':' || coalesce(h.currency_id, i.currency_id) AS key,
      h.amount::text AS balance, i.amount::text AS entries
    FROM held h FULL OUTER JOIN items i ON i.book = h.book AND i.currency_id = h.currency_id
    WHERE coalesce(h.amount, 0) <> coalesce(i.amount, 0)
    ORDER BY 1`);
  // each limit row's reservation is the sum of the deposits holding its account (migration 0025's trigger)
  const reserved = await db.execute<{ key: string; balance: string | null; entries: string | null }>(sql`
    WITH held AS (SELECT i.account_id, SUM(i.amount) AS amount FROM invoices i
                  WHERE i.account_id IS NOT NULL AND ${holdsRequisitesSql('i')} GROUP BY 1)
    SELECT 'reserved:' || coalesce(l.account_id, h.account_id) AS key, l.reserved::text AS balance,
      h.amount::text AS entries
    FROM account_limits l FULL OUTER JOIN held h ON h.account_id = l.account_id
    WHERE coalesce(l.reserved, 0) <> coalesce(h.amount, 0)
    ORDER BY 1`);
  const unbalanced = await db.execute<{ book: Book; currency_id: number; total: string }>(sql`
    SELECT book, currency_id, SUM(amount)::text AS total FROM (
      SELECT e.book, e.currency_id, SUM(e.amount) AS amount FROM ledger_entries e WHERE ${open} GROUP BY 1, 2
      UNION ALL SELECT book, currency_id, entries FROM ${closedSums} c) s
    GROUP BY book, currency_id HAVING SUM(amount) <> 0 ORDER BY 1, 2`);
  return {
    drift: [...drift.rows, ...days, ...suspense.rows, ...reserved.rows].map((r) => ({
      key: r.key,
      balance: toExactInt(r.balance ?? 0),
      entries: toExactInt(r.entries ?? 0),
    })),
    unbalanced: unbalanced.rows.map((r) => ({
      book: r.book,
      currencyId: Number(r.currency_id),
      total: toExactInt(r.total),
    })),
  };
}

/** Day totals (alias `d`) of the UTC days in [from, to) (null: no bound; month bounds fall on UTC midnights). */
export const daysWithin = (from: string | null, to: string | null) =>
  sql`d.day >= (${from ?? '-infinity'}::timestamptz AT TIME ZONE 'UTC')::date
    AND d.day < (${to ?? 'infinity'}::timestamptz AT TIME ZONE 'UTC')::date`;

/**
 * The day totals (migrations 0013, 0014, kept by a trigger on every posting) of the days in [from, to) (null: no
 * bound; UTC days, as month bounds are) that differ from their entries.
 */
export async function dayDrift(db: DbOrTx, from: string | null, to: string | null) {
  const range = sql`e.created_at >= ${from ?? '-infinity'}::timestamptz AND e.created_at < ${to ?? 'infinity'}::timestamptz`;
  const r = await db.execute<{ key: string; balance: string | null; entries: string | null }>(sql`
    WITH sums AS (
      SELECT e.merchant_id, e.currency_id, e.book, e.terminal_id, (e.created_at AT TIME ZONE 'UTC')::date AS day,
        COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND i.flow_type = 'DEPOSIT'), 0) AS deposits,
        COALESCE(SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND i.flow_type = 'WITHDRAWAL'), 0) AS withdrawals,
        COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'fees'), 0) AS fees,
        COALESCE(SUM(e.amount) FILTER (WHERE e.account = 'merchant' AND e.settlement_id IS NOT NULL), 0) AS settlements,
        COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'merchant'), 0) AS net,
        COALESCE(-SUM(e.amount) FILTER (WHERE e.account = 'merchant_hold'), 0) AS holds
      FROM ledger_entries e LEFT JOIN invoices i ON i.id = e.invoice_id
      WHERE e.account IN ('merchant', 'fees', 'merchant_hold') AND e.merchant_id IS NOT NULL AND ${range}
      GROUP BY 1, 2, 3, 4, 5),
    d AS (SELECT * FROM ledger_day_totals d WHERE ${daysWithin(from, to)})
    SELECT 'day:' || coalesce(d.merchant_id, s.merchant_id) || ':' || coalesce(d.currency_id, s.currency_id) || ':' ||
        coalesce(d.book, s.book) || ':' || coalesce(coalesce(d.terminal_id, s.terminal_id)::text, 'none') || ':' ||
        coalesce(d.day, s.day) AS key,
      d.net::text AS balance, s.net::text AS entries
    FROM d FULL OUTER JOIN sums s
      ON s.merchant_id = d.merchant_id AND s.currency_id = d.currency_id AND s.book = d.book AND s.day = d.day
        AND s.terminal_id IS NOT DISTINCT FROM d.terminal_id
    WHERE (d.deposits, d.withdrawals, d.fees, d.settlements, d.net, d.holds)
      IS DISTINCT FROM (s.deposits, s.withdrawals, s.fees, s.settlements, s.net, s.holds)
    ORDER BY 1 LIMIT 100`);
  return r.rows;
}
