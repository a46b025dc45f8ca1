import type { AppContext } from '../lib/context';
import { closeLedgerMonths, type ClosedMonth } from '../modules/ledger/closed-months';
import { ensureHistoryPartitions, retireHistory, type RetiredPartition } from '../modules/history/partitions';

/** The advisory lock of the history upkeep (any constant no other lock of the product uses). */
export const UPKEEP_LOCK = 7385019265;

/**
 * Runs `fn` unless another process is running it: on PostgreSQL under a session advisory lock tried (never waited
 * for) on a connection of its own, released when `fn` ends; the embedded database has one process. Null: skipped.
 */
async function inOneProcess<T>(ctx: AppContext, fn: () => Promise<T>): Promise<T | null> {
  if (ctx.dbh.kind !== 'postgres') return fn();
  const client = await ctx.dbh.pool.connect();
  try {
    const got = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [UPKEEP_LOCK]);
    if (!got.rows[0]!.got) return null;
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [UPKEEP_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * The history-partitions worker's tick: the months ahead created, the ended ledger months closed
 * (ledger/closed-months.ts), the callback attempts' and event log's months past the retention archived and dropped.
 * One process at a time, so that two never close or archive the same month; null when another process is at it.
 */
export function historyUpkeep(
  ctx: AppContext,
  now: Date,
): Promise<{ created: number; closed: ClosedMonth[]; drift: string | null; retired: RetiredPartition[] } | null> {
  return inOneProcess(ctx, async () => {
    const created = await ensureHistoryPartitions(ctx.db, now);
    const ledger = await closeLedgerMonths(ctx.db, now);
    return { created, ...ledger, retired: await retireHistory(ctx, now) };
  });
}
