import type { Readable } from 'node:stream';
import { eq, sql, type SQL } from 'drizzle-orm';
import {
  REPORT_COLUMNS,
  type BalanceReportQuery,
  type InvoiceReportQuery,
  type PoolBalanceReportQuery,
  type ProviderReportQuery,
} from '@paydesk/contracts';
import { currencies } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { CURRENCY_SCALE, isoMillis, major, reportText } from '../../lib/csv-sql';
import { notFound } from '../../lib/errors';
import { chunkedAggregate, reportCsv, rowsValues, type Key, type ReportCheck, type ReportPlan } from './stream';

/**
 * Every report is one `COPY (SELECT …) TO STDOUT` whose SELECT formats the cells as the files always had them
 * (lib/csv-sql.ts: formula-looking text with a leading quote, amounts in major units by the currency's dimension,
 * ISO times; CRLF line ends by reportCsv): PostgreSQL writes the file at COPY speed. On the embedded database
 * (PGlite, one connection) no statement may hold the connection for long, so the invoice report reads keyset
 * batches, the provider and pool reports sum the period in short chunks of time and format the totals with the same
 * SELECT, and the balance report reads a few rows a day (stream.ts). The files are byte for byte those of the
 * JavaScript formatting before (bench:reports prints their sha256).
 */

/** [start of periodStart, start of the day after periodEnd) in UTC. */
function periodBounds(q: { periodStart: string; periodEnd: string }) {
  const from = new Date(`${q.periodStart}T00:00:00Z`);
  const to = new Date(new Date(`${q.periodEnd}T00:00:00Z`).getTime() + 86_400_000);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** `expr AS "column"` for each column of a report, in order. */
const columns = (names: readonly string[], exprs: string[]) =>
  sql.raw(exprs.map((e, i) => `${e} AS "${names[i]!}"`).join(',\n      '));

/** The report's currency (an id or a code) and the checks that it exists: a code is looked up, an id checked with the report. */
async function currencyOf(ctx: AppContext, ref: string | number): Promise<{ id: number; checks: ReportCheck[] }> {
  if (typeof ref === 'number') {
    return {
      id: ref,
      checks: [
        {
          sql: sql`SELECT 1 FROM currencies WHERE id = ${ref}::int`,
          refuse: () => notFound('Currency'),
          lasting: true,
        },
      ],
    };
  }
  const [c] = await ctx.db.select({ id: currencies.id }).from(currencies).where(eq(currencies.code, ref));
  if (!c) throw notFound('Currency');
  return { id: c.id, checks: [] };
}

/** The check that a terminal is the merchant's (as lib/tenant.ts ownedTerminal, with the report). */
const ownedTerminalCheck = (merchantId: string, terminalId: string | undefined): ReportCheck[] =>
  terminalId
    ? [
        {
          sql: sql`SELECT 1 FROM terminals WHERE id = ${terminalId}::uuid AND merchant_id = ${merchantId}::uuid`,
          refuse: () => notFound('Terminal'),
          lasting: true,
        },
      ]
    : [];

/**
 * One row per invoice created in the period (optionally one terminal), oldest first. On PGlite in keyset batches
 * bounded by the newest invoice of the period when the report began: invoices created later are not in the file.
 */
export async function invoicePlan(_ctx: AppContext, merchantId: string, q: InvoiceReportQuery): Promise<ReportPlan> {
  const { from, to } = periodBounds(q);
  const where = sql`i.merchant_id = ${merchantId}::uuid
      AND i.created_at >= ${from}::timestamptz AND i.created_at < ${to}::timestamptz
      ${q.terminalId ? sql`AND i.terminal_id = ${q.terminalId}::uuid` : sql``}`;
  const select = (range: SQL) => sql`
    SELECT ${columns(REPORT_COLUMNS.invoice, [
      'i.id',
      reportText('i.merchant_invoice_id'),
      isoMillis('i.created_at'),
      'i.status',
      'i.flow_type',
      major('i.amount'),
      major('i.fee'),
      'c.code',
      reportText('t.name'),
      reportText('pm.name'),
    ])}
    FROM invoices i
    JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = i.currency_id
    JOIN terminals t ON t.id = i.terminal_id
    LEFT JOIN payment_methods pm ON pm.id = i.payment_method_id
    WHERE ${where} ${range}
    ORDER BY i.created_at ASC NULLS FIRST, i.id`; // = created_at, id (never null): the newest-first index backwards
  const after = (k: Key) =>
    sql`AND i.created_at >= ${k.at}::timestamptz
      AND (i.created_at > ${k.at}::timestamptz OR (i.created_at = ${k.at}::timestamptz AND i.id > ${k.id}::uuid))`;
  const until = (k: Key) =>
    sql`AND i.created_at <= ${k.at}::timestamptz
      AND (i.created_at < ${k.at}::timestamptz OR (i.created_at = ${k.at}::timestamptz AND i.id <= ${k.id}::uuid))`;
  let last: Key | null | undefined;
  return {
    checks: ownedTerminalCheck(merchantId, q.terminalId),
    whole: select(sql``),
    batches: {
      async end(run, from, n) {
        // the newest row of the period now: the report's end, whatever is created while it runs
        last ??= await run<Key>(
          sql`SELECT created_at::text AS at, id::text AS id FROM invoices i WHERE ${where}
            ORDER BY i.created_at DESC NULLS LAST, i.id DESC LIMIT 1`,
        );
        if (!last) return null;
        return run<Key>(sql`
        SELECT at, id FROM (
          SELECT i.created_at::text AS at, i.id::text AS id, i.created_at, i.id AS uid FROM invoices i
          WHERE ${where} ${from ? after(from) : sql``} ${until(last)}
          ORDER BY i.created_at ASC NULLS FIRST, i.id LIMIT ${n}::int) b
        ORDER BY b.created_at DESC, b.uid DESC LIMIT 1`);
      },
      copy: (from, upTo) => select(sql`${from ? after(from) : sql``} ${upTo ? until(upTo) : sql`AND false`}`),
    },
  };
}

/**
 * Per day of the period, from the merchant's ledger in one currency (optionally one terminal's entries):
 * opening balance, deposits credited (net of fee), withdrawals paid (held or paid out, fee included),
 * fees charged (already inside the two before), settlements, closing balance.
 * closing = opening + deposits_credited − withdrawals_paid − settlements (+ any other merchant posting).
 *
 * A report costs what its days cost, not what the ledger holds: it reads the ledger's period checkpoints
 * (ledger_day_totals, one row per merchant, currency, terminal and day, kept with every posting; migration 0013), the
 * opening balance from the days before the period (per terminal too, which the ledger's balances are not). A few
 * rows: one short statement on PostgreSQL and PGlite alike.
 */
export async function balancePlan(ctx: AppContext, merchantId: string, q: BalanceReportQuery): Promise<ReportPlan> {
  const c = await currencyOf(ctx, q.currencyId ?? q.currency!);
  const totals = sql`d.merchant_id = ${merchantId}::uuid AND d.currency_id = ${c.id}::int AND d.book = 'live'
    ${q.terminalId ? sql`AND d.terminal_id = ${q.terminalId}::uuid` : sql``}`;
  const whole = sql`
    WITH daily AS (
      SELECT d.day, SUM(d.deposits) AS deposits, SUM(d.withdrawals) AS withdrawals, SUM(d.fees) AS fees,
        SUM(d.settlements) AS settlements, SUM(d.net) AS net
      FROM ledger_day_totals d
      WHERE ${totals} AND d.day >= ${q.periodStart}::date AND d.day <= ${q.periodEnd}::date
      GROUP BY d.day
    ),
    opening AS (
      SELECT COALESCE(SUM(d.net), 0)::bigint AS v FROM ledger_day_totals d
      WHERE ${totals} AND d.day < ${q.periodStart}::date
    ),
    days AS (
      SELECT d::date AS day FROM generate_series(${q.periodStart}::date, ${q.periodEnd}::date, interval '1 day') AS d
    ),
    r AS (
      SELECT days.day,
        (opening.v + COALESCE(SUM(daily.net) OVER w, 0) - COALESCE(daily.net, 0))::bigint AS opening,
        COALESCE(daily.deposits, 0)::bigint AS deposits,
        COALESCE(daily.withdrawals, 0)::bigint AS withdrawals,
        COALESCE(daily.fees, 0)::bigint AS fees,
        COALESCE(daily.settlements, 0)::bigint AS settlements,
        (opening.v + COALESCE(SUM(daily.net) OVER w, 0))::bigint AS closing
      FROM days LEFT JOIN daily ON daily.day = days.day CROSS JOIN opening
      WINDOW w AS (ORDER BY days.day ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
    )
    SELECT ${columns(REPORT_COLUMNS.balance, [
      `to_char(r.day, 'YYYY-MM-DD')`,
      'c.code',
      major('r.opening'),
      major('r.deposits'),
      major('r.withdrawals'),
      major('r.fees'),
      major('r.settlements'),
      major('r.closing'),
    ])}
    FROM r CROSS JOIN (SELECT * FROM ${sql.raw(CURRENCY_SCALE)} c WHERE c.id = ${c.id}::int) c
    ORDER BY r.day`;
  return { whole, checks: [...c.checks, ...ownedTerminalCheck(merchantId, q.terminalId)] };
}

/**
 * Per account of the provider whose method is in the currency: the merchant's deposits that became DONE in the
 * period (incoming) and its withdrawals that became DONE in the period (payouts), count and sum. The sums read
 * invoices_account_done_idx (the period of each account's DONE invoices).
 */
export async function providerPlan(ctx: AppContext, merchantId: string, q: ProviderReportQuery): Promise<ReportPlan> {
  const c = await currencyOf(ctx, q.currencyId ?? q.currency!);
  const checks: ReportCheck[] = [
    ...c.checks,
    {
      sql: sql`SELECT 1 FROM providers WHERE id = ${q.providerId}::int`,
      refuse: () => notFound('Provider'),
      lasting: true,
    },
  ];
  const { from, to } = periodBounds(q);
  const accounts = sql`SELECT a.id FROM provider_accounts a JOIN payment_methods pm ON pm.id = a.payment_method_id
    WHERE a.provider_id = ${q.providerId}::int AND pm.currency_id = ${c.id}::int`;
  const sums = (a: SQL, b: SQL) => sql`
    SELECT i.account_id AS key,
      COUNT(*) FILTER (WHERE i.flow_type = 'DEPOSIT')::bigint AS in_count,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'DEPOSIT'), 0)::bigint AS in_sum,
      COUNT(*) FILTER (WHERE i.flow_type = 'WITHDRAWAL')::bigint AS out_count,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'WITHDRAWAL'), 0)::bigint AS out_sum
    FROM invoices i
    WHERE i.account_id IN (${accounts}) AND i.status = 'DONE' AND NOT i.is_test
      AND i.merchant_id = ${merchantId}::uuid AND i.currency_id = ${c.id}::int
      AND i.status_date >= ${a} AND i.status_date < ${b}
    GROUP BY 1`;
  const format = (s: SQL) => sql`
    SELECT ${columns(REPORT_COLUMNS.provider, [
      'a.id',
      reportText('pr.name'),
      reportText('a.bank_name'),
      reportText('pm.name'),
      'c.code',
      'COALESCE(s.in_count, 0)',
      major('COALESCE(s.in_sum, 0)'),
      'COALESCE(s.out_count, 0)',
      major('COALESCE(s.out_sum, 0)'),
    ])}
    FROM provider_accounts a
    JOIN providers pr ON pr.id = a.provider_id
    JOIN payment_methods pm ON pm.id = a.payment_method_id
    JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = pm.currency_id
    LEFT JOIN (${s}) s ON s.key = a.id
    WHERE a.provider_id = ${q.providerId}::int AND pm.currency_id = ${c.id}::int
    ORDER BY a.id`;
  return periodAggregate(ctx, from, to, sums, format, ['in_count', 'in_sum', 'out_count', 'out_sum'], 'int', checks);
}

/**
 * Per terminal of the merchant's pool: sums of deposits and withdrawals that became DONE in the period, and net.
 * The sums read invoices_terminal_done_idx: the period of each terminal's DONE invoices, nothing else.
 */
export async function poolBalancePlan(
  ctx: AppContext,
  merchantId: string,
  q: PoolBalanceReportQuery,
): Promise<ReportPlan> {
  const checks: ReportCheck[] = [
    {
      sql: sql`SELECT 1 FROM terminal_pools WHERE id = ${q.terminalPoolId}::int AND merchant_id = ${merchantId}::uuid`,
      refuse: () => notFound('Terminal pool'),
      lasting: true,
    },
  ];
  const { from, to } = periodBounds(q);
  const members = sql`SELECT t.id FROM terminal_pool_members m
    JOIN terminals t ON t.id = m.terminal_id AND t.merchant_id = ${merchantId}::uuid WHERE m.pool_id = ${q.terminalPoolId}::int`;
  const sums = (a: SQL, b: SQL) => sql`
    SELECT i.terminal_id AS key,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'DEPOSIT'), 0)::bigint AS dep,
      COALESCE(SUM(i.amount) FILTER (WHERE i.flow_type = 'WITHDRAWAL'), 0)::bigint AS wd
    FROM invoices i
    WHERE i.terminal_id IN (${members}) AND i.status = 'DONE' AND NOT i.is_test
      AND i.status_date >= ${a} AND i.status_date < ${b}
    GROUP BY 1`;
  const format = (s: SQL) => sql`
    SELECT ${columns(REPORT_COLUMNS['pool/balance'], [
      't.id',
      reportText('t.name'),
      'c.code',
      major('COALESCE(s.dep, 0)'),
      major('COALESCE(s.wd, 0)'),
      major('COALESCE(s.dep, 0) - COALESCE(s.wd, 0)'),
    ])}
    FROM terminal_pool_members m
    JOIN terminals t ON t.id = m.terminal_id AND t.merchant_id = ${merchantId}::uuid
    JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = t.currency_id
    LEFT JOIN (${s}) s ON s.key = t.id
    WHERE m.pool_id = ${q.terminalPoolId}::int
    ORDER BY t.created_at, t.name`;
  return periodAggregate(ctx, from, to, sums, format, ['dep', 'wd'], 'uuid', checks);
}

/**
 * A report of sums per key over [from, to): on PostgreSQL one COPY of format(sums(period)); on PGlite the sums in
 * short chunks of time added up here, then one COPY of format(the totals as VALUES).
 */
function periodAggregate(
  ctx: AppContext,
  from: string,
  to: string,
  sums: (a: SQL, b: SQL) => SQL,
  format: (source: SQL) => SQL,
  names: string[],
  keyType: string,
  checks: ReportCheck[],
): ReportPlan {
  return {
    checks,
    whole: format(sums(sql`${from}::timestamptz`, sql`${to}::timestamptz`)),
    aggregate: async () => {
      const parts = await chunkedAggregate(ctx, from, to, sums, { key: (r) => String(r.key), sums: names });
      const rows = [...parts].map(([key, s]) => ({ key, ...s }));
      return format(rowsValues(rows, [['key', keyType], ...names.map((n): [string, string] => [n, 'bigint'])]));
    },
  };
}

type Planner<Q> = (ctx: AppContext, merchantId: string, q: Q) => Promise<ReportPlan>;
const report =
  <Q>(plan: Planner<Q>) =>
  async (ctx: AppContext, merchantId: string, q: Q): Promise<Readable> =>
    reportCsv(ctx, await plan(ctx, merchantId, q));

export const invoiceReport = report(invoicePlan);
export const balanceReport = report(balancePlan);
export const providerReport = report(providerPlan);
export const poolBalanceReport = report(poolBalancePlan);
