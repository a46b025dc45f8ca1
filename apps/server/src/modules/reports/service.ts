import { and, eq, sql } from 'drizzle-orm';
import {
  minorToMajorString,
  REPORT_COLUMNS,
  type BalanceReportQuery,
  type InvoiceReportQuery,
  type PoolBalanceReportQuery,
  type ProviderReportQuery,
} from '@paydesk/contracts';
import { currencies, providers, terminalPools } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { ownedTerminal } from '../../lib/tenant';
import { csvStream } from './stream';

/** [start of periodStart, start of the day after periodEnd) in UTC. */
function periodBounds(q: { periodStart: string; periodEnd: string }) {
  const from = new Date(`${q.periodStart}T00:00:00Z`);
  const to = new Date(new Date(`${q.periodEnd}T00:00:00Z`).getTime() + 86_400_000);
  return { from: from.toISOString(), to: to.toISOString() };
}

const money = (minor: unknown, dimension: unknown) => ({
  v: minorToMajorString(Number(minor ?? 0), Number(dimension)),
  text: false,
});

async function currencyOf(ctx: AppContext, ref: string | number) {
  const [c] = await ctx.db
    .select({ id: currencies.id, code: currencies.code, dimension: currencies.dimension })
    .from(currencies)
    .where(typeof ref === 'number' ? eq(currencies.id, ref) : eq(currencies.code, ref));
  if (!c) throw notFound('Currency');
  return c;
}

/** One row per invoice created in the period (optionally one terminal), oldest first. */
export async function invoiceReport(ctx: AppContext, merchantId: string, q: InvoiceReportQuery) {
  if (q.terminalId) await ownedTerminal(ctx.db, merchantId, q.terminalId);
  const { from, to } = periodBounds(q);
  const query = sql`
    SELECT i.id, i.merchant_invoice_id, i.created_at, i.status, i.flow_type, i.amount, i.fee,
           c.code AS currency, c.dimension, t.name AS terminal, pm.name AS method
    FROM invoices i
    JOIN currencies c ON c.id = i.currency_id
    JOIN terminals t ON t.id = i.terminal_id
    LEFT JOIN payment_methods pm ON pm.id = i.payment_method_id
    WHERE i.merchant_id = ${merchantId}
      AND i.created_at >= ${from}::timestamptz AND i.created_at < ${to}::timestamptz
      ${q.terminalId ? sql`AND i.terminal_id = ${q.terminalId}` : sql``}
    ORDER BY i.created_at, i.id`;
  return csvStream(ctx, REPORT_COLUMNS.invoice, query, (r) => [
    { v: r.id },
    { v: r.merchant_invoice_id },
    { v: new Date(r.created_at as string | Date).toISOString(), text: false },
    { v: r.status },
    { v: r.flow_type },
    money(r.amount, r.dimension),
    money(r.fee, r.dimension),
    { v: r.currency },
    { v: r.terminal },
    { v: r.method },
  ]);
}

/**
 * Per day of the period, from the merchant's ledger in one currency (optionally one terminal's entries):
 * opening balance, deposits credited (net of fee), withdrawals paid (held or paid out, fee included),
 * fees charged (already inside the two before), settlements, closing balance.
 * closing = opening + deposits_credited − withdrawals_paid − settlements (+ any other merchant posting).
 */
export async function balanceReport(ctx: AppContext, merchantId: string, q: BalanceReportQuery) {
  const c = await currencyOf(ctx, q.currencyId);
  if (q.terminalId) await ownedTerminal(ctx.db, merchantId, q.terminalId);
  const { from, to } = periodBounds(q);
  const terminalFilter = q.terminalId ? sql`AND e.terminal_id = ${q.terminalId}` : sql``;
  const query = sql`
    WITH e AS (
      SELECT e.created_at, e.amount, e.account, e.settlement_id, i.flow_type
      FROM ledger_entries e LEFT JOIN invoices i ON i.id = e.invoice_id
      WHERE e.merchant_id = ${merchantId} AND e.currency_id = ${c.id} AND e.account IN ('merchant', 'fees')
        AND e.book = 'live'
        AND e.created_at < ${to}::timestamptz ${terminalFilter}
    ),
    opening AS (
      SELECT COALESCE(-SUM(amount), 0)::bigint AS v FROM e WHERE account = 'merchant' AND created_at < ${from}::timestamptz
    ),
    daily AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
        COALESCE(-SUM(amount) FILTER (WHERE account = 'merchant' AND flow_type = 'DEPOSIT'), 0) AS deposits,
        COALESCE(SUM(amount) FILTER (WHERE account = 'merchant' AND flow_type = 'WITHDRAWAL'), 0) AS withdrawals,
        COALESCE(-SUM(amount) FILTER (WHERE account = 'fees'), 0) AS fees,
        COALESCE(SUM(amount) FILTER (WHERE account = 'merchant' AND settlement_id IS NOT NULL), 0) AS settlements,
        COALESCE(-SUM(amount) FILTER (WHERE account = 'merchant'), 0) AS net
      FROM e WHERE created_at >= ${from}::timestamptz
      GROUP BY 1
    ),
    days AS (
      SELECT d::date AS day FROM generate_series(${q.periodStart}::date, ${q.periodEnd}::date, interval '1 day') AS d
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
      (opening.v + COALESCE(SUM(daily.net) OVER (ORDER BY days.day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))::bigint AS opening,
      COALESCE(daily.deposits, 0)::bigint AS deposits,
      COALESCE(daily.withdrawals, 0)::bigint AS withdrawals,
      COALESCE(daily.fees, 0)::bigint AS fees,
      COALESCE(daily.settlements, 0)::bigint AS settlements,
      (opening.v + COALESCE(SUM(daily.net) OVER (ORDER BY days.day ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), 0))::bigint AS closing
    FROM days LEFT JOIN daily ON daily.day = days.day CROSS JOIN opening
    ORDER BY days.day`;
  return csvStream(ctx, REPORT_COLUMNS.balance, query, (r) => [
    { v: r.day, text: false },
    { v: c.code },
    money(r.opening, c.dimension),
    money(r.deposits, c.dimension),
    money(r.withdrawals, c.dimension),
    money(r.fees, c.dimension),
    money(r.settlements, c.dimension),
    money(r.closing, c.dimension),
  ]);
}

/**
 * Per account of the provider whose method is in the currency: the merchant's deposits that became DONE in the
 * period (incoming) and its withdrawals that became DONE in the period (payouts), count and sum.
 */
export async function providerReport(ctx: AppContext, merchantId: string, q: ProviderReportQuery) {
  const c = await currencyOf(ctx, q.currencyId);
  const [p] = await ctx.db.select({ id: providers.id }).from(providers).where(eq(providers.id, q.providerId));
  if (!p) throw notFound('Provider');
  const { from, to } = periodBounds(q);
  const query = sql`
    SELECT a.id, pr.name AS provider, a.bank_name, pm.name AS method,
      COUNT(i.id) FILTER (WHERE i.flow_type = 'DEPOSIT')::int AS in_count,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'DEPOSIT'), 0)::bigint AS in_sum,
      COUNT(i.id) FILTER (WHERE i.flow_type = 'WITHDRAWAL')::int AS out_count,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'WITHDRAWAL'), 0)::bigint AS out_sum
    FROM provider_accounts a
    JOIN providers pr ON pr.id = a.provider_id
    JOIN payment_methods pm ON pm.id = a.payment_method_id
    LEFT JOIN invoices i ON i.account_id = a.id AND i.merchant_id = ${merchantId} AND i.status = 'DONE'
      AND i.currency_id = ${c.id} AND NOT i.is_test
      AND i.status_date >= ${from}::timestamptz AND i.status_date < ${to}::timestamptz
    WHERE a.provider_id = ${p.id} AND pm.currency_id = ${c.id}
    GROUP BY a.id, pr.name, a.bank_name, pm.name
    ORDER BY a.id`;
  return csvStream(ctx, REPORT_COLUMNS.provider, query, (r) => [
    { v: r.id, text: false },
    { v: r.provider },
    { v: r.bank_name },
    { v: r.method },
    { v: c.code },
    { v: r.in_count, text: false },
    money(r.in_sum, c.dimension),
    { v: r.out_count, text: false },
    money(r.out_sum, c.dimension),
  ]);
}

/** Per terminal of the merchant's pool: sums of deposits and withdrawals that became DONE in the period, and net. */
export async function poolBalanceReport(ctx: AppContext, merchantId: string, q: PoolBalanceReportQuery) {
  const [pool] = await ctx.db
    .select({ id: terminalPools.id })
    .from(terminalPools)
    .where(and(eq(terminalPools.id, q.terminalPoolId), eq(terminalPools.merchantId, merchantId)));
  if (!pool) throw notFound('Terminal pool');
  const { from, to } = periodBounds(q);
  const query = sql`
    SELECT t.id, t.name, c.code AS currency, c.dimension,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'DEPOSIT'), 0)::bigint AS dep,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'WITHDRAWAL'), 0)::bigint AS wd
    FROM terminal_pool_members m
    JOIN terminals t ON t.id = m.terminal_id AND t.merchant_id = ${merchantId}
    JOIN currencies c ON c.id = t.currency_id
    LEFT JOIN invoices i ON i.terminal_id = t.id AND i.status = 'DONE' AND NOT i.is_test
      AND i.status_date >= ${from}::timestamptz AND i.status_date < ${to}::timestamptz
    WHERE m.pool_id = ${pool.id}
    GROUP BY t.id, t.name, c.code, c.dimension, t.created_at
    ORDER BY t.created_at, t.name`;
  return csvStream(ctx, REPORT_COLUMNS['pool/balance'], query, (r) => [
    { v: r.id },
    { v: r.name },
    { v: r.currency },
    money(r.dep, r.dimension),
    money(r.wd, r.dimension),
    money(Number(r.dep) - Number(r.wd), r.dimension),
  ]);
}
