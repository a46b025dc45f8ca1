import { sql } from 'drizzle-orm';
import type { Tx } from '../create-db';

const DAY = 24 * 3600_000;

/**
 * SEED_EXTRA_INVOICES (demo seed only, for tests that need a list past the 10,000-row cap, e.g. the e2e keyset spec):
 * `count` more invoices of one merchant, made by one INSERT … SELECT generate_series (about a second for 10,000 on
 * PGlite). They are forms the customer never paid: CANCELED, no ledger entries, no callbacks, no events, so balances,
 * monitoring and the engine's checks are what the demo history alone gives. Their times lie between the merchant's
 * terminals' creation and the demo history (which covers the last 30 days), so the newest pages of the list are the
 * demo's own; they alternate between the merchant's terminals, in each terminal's currency and flow.
 */
export async function seedExtraInvoices(tx: Tx, merchantId: string, count: number, now: number): Promise<number> {
  if (count <= 0) return 0;
  // from 88 days ago (the terminals are 90 days old) to 31 days ago (before the demo history), oldest first
  const from = new Date(now - 88 * DAY).toISOString();
  const stepMs = (57 * DAY) / count;
  const res = await tx.execute(sql`
    WITH t AS (
      SELECT array_agg(id ORDER BY name) AS ids, array_agg(flow_type ORDER BY name) AS flows,
             array_agg(currency_id ORDER BY name) AS cur, array_agg(is_test ORDER BY name) AS test, count(*)::int AS n
      FROM terminals WHERE merchant_id = ${merchantId}
    )
    INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, fee,
                          currency_id, is_test, expires_at, status_date, created_at)
    SELECT ${merchantId}, t.ids[x.k], 'EXTRA-' || lpad(g::text, 7, '0'), 'extra-' || ${merchantId} || '-' || g,
           t.flows[x.k], 'CANCELED', x.amount, 0, t.cur[x.k], t.test[x.k],
           x.ts + interval '30 minutes', x.ts + interval '30 minutes', x.ts
    FROM generate_series(1, ${count}::int) g, t,
         LATERAL (SELECT 1 + (g % t.n) AS k,
                         ${from}::timestamptz + (g * ${stepMs}::float8) * interval '1 millisecond' AS ts,
                         -- 100.00 to ~50,000.00 in minor units, varied
                         10000 + (g::bigint * 7919) % 5000000 AS amount) x
    WHERE t.n > 0`);
  return res.rowCount ?? count;
}
