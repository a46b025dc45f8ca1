import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/create-db';
import { BALANCE_KEY_SQL, dayDrift, daysWithin } from './reconcile';

/** A month is closed this long after it ended: entries are written at the time they are made, never later. */
export const CLOSE_AFTER_MS = 3600_000;

export type ClosedMonth = { partition: string; rows: number; keys: number };

/**
 * Closes the ledger's months that ended at least CLOSE_AFTER_MS before `now`, oldest first, each in one transaction:
 * the month's partition locked against writes, its day totals compared with its entries (any difference: the month
 * stays open, where the reconciliation keeps reporting it, and closing stops there), its sums per balance key kept in
 * ledger_closed_sums, its day totals summed a month a row into ledger_month_totals (the all-time figures read those
 * and the open months' days: service.ts merchantSums), and a trigger on the partition that refuses new entries from
 * then on. The ledger already
 * refuses changes and removals (migration 0027), so a closed month's sums stay its entries' sums, and the
 * reconciliation (reconcile.ts) reads the open months only. Returns the months it closed. One process at a time
 * (workers/history.ts historyUpkeep).
 */
export async function closeLedgerMonths(
  db: DbOrTx,
  now: Date,
): Promise<{ closed: ClosedMonth[]; drift: string | null }> {
  const due = await db.execute<{ partition: string; from_at: string | null; to_at: string }>(sql`
    SELECT partition, from_at::text, to_at::text FROM history_partitions
    WHERE parent = 'ledger_entries' AND closed_at IS NULL AND archived_at IS NULL
      AND to_at <= ${new Date(now.getTime() - CLOSE_AFTER_MS).toISOString()}::timestamptz
    ORDER BY to_at`);
  const closed: ClosedMonth[] = [];
  for (const p of due.rows) {
    const done = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL lock_timeout = '5s'`);
      await tx.execute(sql.raw(`LOCK TABLE "${p.partition}" IN SHARE MODE`));
      const drift = await dayDrift(tx, p.from_at, p.to_at);
      if (drift.length) return { drift: `${p.partition}: ${drift.length} day total(s) differ, first ${drift[0]!.key}` };
      const sums = await tx.execute<{ keys: number; rows: string }>(sql`
        WITH kept AS (
          INSERT INTO ledger_closed_sums (partition, key, book, currency_id, entries, rows)
          SELECT ${p.partition}, ${BALANCE_KEY_SQL}, e.book, e.currency_id, SUM(e.amount), count(*)
          FROM ${sql.identifier(p.partition)} e GROUP BY 2, 3, 4
          RETURNING rows)
        SELECT count(*)::int AS keys, coalesce(sum(rows), 0)::text AS rows FROM kept`);
      // the days' totals, a row a month (a partition from the beginning spans many months)
      await tx.execute(sql`
        INSERT INTO ledger_month_totals (merchant_id, currency_id, book, terminal_id, month, deposits, withdrawals, fees,
          settlements, net, holds)
        SELECT merchant_id, currency_id, book, terminal_id, date_trunc('month', day)::date, sum(deposits),
          sum(withdrawals), sum(fees), sum(settlements), sum(net), sum(holds)
        FROM ledger_day_totals d WHERE ${daysWithin(p.from_at, p.to_at)}
        GROUP BY 1, 2, 3, 4, 5`);
      await tx.execute(
        sql.raw(
          `CREATE TRIGGER ledger_month_closed BEFORE INSERT ON "${p.partition}" FOR EACH ROW ` +
            `EXECUTE FUNCTION ledger_month_closed()`,
        ),
      );
      await tx.execute(sql`
        UPDATE history_partitions SET closed_at = ${now.toISOString()}::timestamptz WHERE partition = ${p.partition}`);
      return {
        drift: undefined,
        month: { partition: p.partition, keys: sums.rows[0]!.keys, rows: Number(sums.rows[0]!.rows) },
      };
    });
    if (done.drift !== undefined) return { closed, drift: done.drift };
    closed.push(done.month!);
  }
  return { closed, drift: null };
}
