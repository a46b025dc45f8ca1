import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  MONITORING_SERIES_BUCKETS,
  percentOf,
  type StatisticMerchant,
  type TerminalStatItem,
} from '@paydesk/contracts';
import { merchants, terminals } from '../../db/schema';
import type { AppContext } from '../../lib/context';

const MERCHANT_LIST_SIZE = 50;

/** Merchants the user may monitor with their terminals: every merchant (first 50) for merchant.rw.all, else their own. */
export async function statisticSettings(
  ctx: AppContext,
  scope: { all: boolean; merchantId: string },
): Promise<StatisticMerchant[]> {
  const ms = await ctx.db
    .select({ id: merchants.id, name: merchants.name })
    .from(merchants)
    .where(scope.all ? undefined : eq(merchants.id, scope.merchantId))
    .orderBy(asc(merchants.createdAt), asc(merchants.name))
    .limit(MERCHANT_LIST_SIZE);
  if (!ms.length) return [];
  const ts = await ctx.db
    .select({ id: terminals.id, name: terminals.name, enabled: terminals.enabled, merchantId: terminals.merchantId })
    .from(terminals)
    .where(
      inArray(
        terminals.merchantId,
        ms.map((m) => m.id),
      ),
    )
    .orderBy(asc(terminals.createdAt), asc(terminals.name));
  return ms.map((m) => ({
    merchantId: m.id,
    name: m.name,
    terminals: ts
      .filter((t) => t.merchantId === m.id)
      .map((t) => ({ terminalId: t.id, name: t.name, enable: t.enabled })),
  }));
}

const threshold = (v: string | null) => {
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * Per-terminal outcome counts of the invoices created in the last `minutes` (up to the server clock), with
 * percents over all of them, and the success rate in MONITORING_SERIES_BUCKETS equal buckets of the period.
 */
export async function terminalStatistics(
  ctx: AppContext,
  merchantId: string,
  minutes: number,
): Promise<TerminalStatItem[]> {
  const now = ctx.now();
  const from = new Date(now.getTime() - minutes * 60_000);
  const buckets = MONITORING_SERIES_BUCKETS;

  const ts = await ctx.db.execute<{
    id: string;
    name: string;
    enabled: boolean;
    low: string | null;
    high: string | null;
  }>(sql`
    SELECT t.id, t.name, t.enabled,
      (SELECT a.value FROM terminal_attributes a JOIN "references" r ON r.id = a.attr_type_id
        WHERE a.terminal_id = t.id AND r.header_id = 105 AND r.code = 'SUCCESS_PERCENT_LOW_THRESHOLD') AS low,
      (SELECT a.value FROM terminal_attributes a JOIN "references" r ON r.id = a.attr_type_id
        WHERE a.terminal_id = t.id AND r.header_id = 105 AND r.code = 'SUCCESS_PERCENT_HIGH_THRESHOLD') AS high
    FROM terminals t
    WHERE t.merchant_id = ${merchantId}
    ORDER BY t.created_at, t.name`);

  const counts = await ctx.db.execute<{ terminal_id: string; bucket: number; status: string; n: number }>(sql`
    SELECT i.terminal_id,
      LEAST(width_bucket(EXTRACT(EPOCH FROM i.created_at)::float8, ${from.getTime() / 1000}::float8, ${now.getTime() / 1000}::float8, ${buckets}::int), ${buckets}::int) AS bucket,
      i.status, COUNT(*)::int AS n
    FROM invoices i
    WHERE i.merchant_id = ${merchantId} AND i.created_at > ${from.toISOString()}::timestamptz AND i.created_at <= ${now.toISOString()}::timestamptz
    GROUP BY 1, 2, 3`);

  type Acc = { total: number; byStatus: Map<string, number>; bucketTotal: number[]; bucketDone: number[] };
  const acc = new Map<string, Acc>();
  for (const r of counts.rows) {
    let a = acc.get(r.terminal_id);
    if (!a) {
      a = { total: 0, byStatus: new Map(), bucketTotal: Array(buckets).fill(0), bucketDone: Array(buckets).fill(0) };
      acc.set(r.terminal_id, a);
    }
    const n = Number(r.n);
    const b = Math.min(Math.max(Number(r.bucket), 1), buckets) - 1;
    a.total += n;
    a.byStatus.set(r.status, (a.byStatus.get(r.status) ?? 0) + n);
    a.bucketTotal[b]! += n;
    if (r.status === 'DONE') a.bucketDone[b]! += n;
  }

  const bucketMs = (now.getTime() - from.getTime()) / buckets;
  return ts.rows.map((t) => {
    const a = acc.get(t.id);
    const total = a?.total ?? 0;
    const c = (s: string) => a?.byStatus.get(s) ?? 0;
    return {
      terminalId: t.id,
      name: t.name,
      enable: t.enabled,
      total,
      newCount: c('NEW'),
      successCount: c('DONE'),
      successPercent: percentOf(c('DONE'), total),
      cancelCount: c('CANCELED'),
      cancelPercent: percentOf(c('CANCELED'), total),
      declinedCount: c('DECLINED'),
      declinedPercent: percentOf(c('DECLINED'), total),
      successPercentLowThreshold: threshold(t.low),
      successPercentHighThreshold: threshold(t.high),
      series: Array.from({ length: buckets }, (_, i) => {
        const bt = a?.bucketTotal[i] ?? 0;
        return {
          t: new Date(from.getTime() + Math.round(i * bucketMs)).toISOString(),
          successPercent: bt ? percentOf(a!.bucketDone[i]!, bt) : null,
          total: bt,
        };
      }),
    };
  });
}
