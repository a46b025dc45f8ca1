import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { ensureHistoryPartitions } from '../history/partitions';
import { closeLedgerMonths } from './closed-months';
import { reconcileLedger } from './reconcile';
import { merchantSums } from './service';

/**
 * Closing the ledger's ended months: their sums are kept and stand for their entries in the reconciliation, which then
 * reads the open months only; a closed month takes no entry, and the ledger refuses changes and removals.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const rows = async <T extends Record<string, unknown>>(q: ReturnType<typeof sql>) =>
  (await t.ctx.db.execute<T>(q)).rows;
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: Error & { cause?: Error }) => err.cause?.message ?? err.message,
  );

describe('closed ledger months', () => {
  it('keeps the sums of ended months, refuses entries in them, and reconciles from the open months', async () => {
    // the finance tiles of the demo merchant, all terminals and one, every figure: the same whatever is closed
    const [demo] = await rows<{ merchant_id: string; terminal_id: string }>(
      sql`SELECT i.merchant_id, i.terminal_id FROM invoices i JOIN ledger_entries e ON e.invoice_id = i.id
          GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`,
    );
    const tiles = async () => {
      const out = [];
      for (const kind of ['balance', 'deposit', 'withdrawal'] as const) {
        for (const terminal of [undefined, demo!.terminal_id]) {
          out.push(await merchantSums(t.ctx.db, demo!.merchant_id, kind, 'live', terminal));
        }
      }
      return out;
    };
    const tilesBefore = await tiles();
    expect(tilesBefore.flat().some((x) => x.sum !== 0)).toBe(true);
    const before = await reconcileLedger(t.ctx.db);
    expect(before).toEqual({ drift: [], unbalanced: [] });
    const [{ n: entries }] = (await rows<{ n: string }>(sql`SELECT count(*)::text AS n FROM ledger_entries`)) as [
      { n: string },
    ];

    // on a new installation the first partition ends where this month begins: it is closed at once
    const [first] = await rows<{ partition: string; to_at: string }>(
      sql`SELECT partition, to_at::text FROM history_partitions WHERE parent = 'ledger_entries' AND from_at IS NULL`,
    );
    const [{ n: older }] = (await rows<{ n: string }>(
      sql`SELECT count(*)::text AS n FROM ledger_entries WHERE created_at < ${first!.to_at}::timestamptz`,
    )) as [{ n: string }];
    expect(Number(older)).toBeGreaterThan(0); // the demo's history goes back months
    const now = new Date(Math.max(Date.now(), new Date(first!.to_at).getTime() + 2 * 3600_000));
    // another process closes it while a reconciliation is between its statements: every entry still counted once
    let closing: ReturnType<typeof closeLedgerMonths> | undefined;
    const racing = new Proxy(t.ctx.db, {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver);
        return async (q: Parameters<typeof target.execute>[0]) => {
          const r = await target.execute(q);
          closing ??= closeLedgerMonths(target, now);
          await closing;
          return r;
        };
      },
    });
    expect(await reconcileLedger(racing)).toEqual({ drift: [], unbalanced: [] });
    expect(await closing).toEqual({
      closed: [{ partition: first!.partition, rows: Number(older), keys: expect.any(Number) }],
      drift: null,
    });
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
    expect(await tiles()).toEqual(tilesBefore);
    expect((await rows<{ n: string }>(sql`SELECT count(*)::text AS n FROM ledger_month_totals`))[0]!.n).not.toBe('0');

    // two months on, this month and the next have ended too
    const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1, 2));
    await ensureHistoryPartitions(t.ctx.db, later);
    const { closed, drift } = await closeLedgerMonths(t.ctx.db, later);
    expect(drift).toBeNull();
    expect(closed.map((c) => c.partition)).toEqual([
      expect.stringMatching(/^ledger_entries_\d{4}_\d{2}$/),
      expect.stringMatching(/^ledger_entries_\d{4}_\d{2}$/),
    ]);
    const [kept] = await rows<{ rows: string; sum: string }>(
      sql`SELECT sum(rows)::text AS rows, sum(entries)::text AS sum FROM ledger_closed_sums`,
    );
    // every entry counted once, and the books sum to zero across them
    expect(kept).toEqual({ rows: entries, sum: '0' });

    // the reconciliation finds the same books, reading none of the closed months, and the tiles are the same
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
    expect(await tiles()).toEqual(tilesBefore);
    const [plan] = await rows<{ 'QUERY PLAN': unknown }>(
      sql`EXPLAIN (FORMAT JSON) SELECT count(*) FROM ledger_entries e WHERE e.created_at >= ${later.toISOString()}::timestamptz`,
    );
    expect(JSON.stringify(plan)).not.toContain(first!.partition);

    // a closed month takes no entry, and no entry is ever changed or removed
    const [entry] = await rows<{ id: string; merchant_id: string; currency_id: number }>(
      sql`SELECT id::text, merchant_id, currency_id FROM ledger_entries WHERE merchant_id IS NOT NULL LIMIT 1`,
    );
    expect(
      await refusal(
        t.ctx.db
          .execute(sql`INSERT INTO ledger_entries (tx_id, account, merchant_id, currency_id, amount, kind, created_at)
          VALUES (gen_random_uuid(), 'merchant', ${entry!.merchant_id}, ${entry!.currency_id}, 1, 'test', now() - interval '1 day')`),
      ),
    ).toMatch(/is closed/);
    for (const statement of [
      sql`UPDATE ledger_entries SET amount = amount + 1 WHERE id = ${entry!.id}`,
      sql`DELETE FROM ledger_entries WHERE id = ${entry!.id}`,
      sql`TRUNCATE ledger_entries`,
      sql.raw(`TRUNCATE "${first!.partition}"`),
    ]) {
      expect(await refusal(t.ctx.db.execute(statement))).toMatch(/append-only/);
    }

    // a posting in an open month: a balance row out of step with it is found, with the closed months' sums added in
    const at = new Date(later.getTime() + 3600_000).toISOString();
    await t.ctx.db
      .execute(sql`INSERT INTO ledger_entries (tx_id, account, merchant_id, currency_id, amount, kind, created_at)
      VALUES (gen_random_uuid(), 'merchant', ${entry!.merchant_id}, ${entry!.currency_id}, -700, 'test', ${at}::timestamptz)`);
    const after = await reconcileLedger(t.ctx.db);
    expect(after.drift.map((d) => d.key)).toEqual(
      expect.arrayContaining([expect.stringMatching(`^live:merchant:${entry!.merchant_id}:${entry!.currency_id}$`)]),
    );
    expect(after.unbalanced).toEqual([{ book: 'live', currencyId: entry!.currency_id, total: -700 }]);
    // closing again does nothing more until another month ends
    expect((await closeLedgerMonths(t.ctx.db, later)).closed).toEqual([]);
  });
});
