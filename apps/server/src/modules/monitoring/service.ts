import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  bucketMinutesFor,
  OUTCOME_STATUSES,
  outcomeRates,
  successRate,
  type StatisticMerchant,
  type TerminalStatItem,
} from '@paydesk/contracts';
import { merchants, terminals } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { readStatistics, type RowsOf } from '../../lib/replica-read';

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

/** UTC midnight: with bucket sizes that divide a day, date_bin from here gives UTC clock boundaries. */
const BUCKET_ORIGIN = '2000-01-01T00:00:00Z';

/**
 * Per-terminal outcome counts of the invoices created in (now - minutes, now] (server clock), with the outcomes'
 * shares of the finished ones (contracts' outcomeRates: null while none has finished), and the success rate per bucket of bucketMinutesFor(minutes) on UTC clock boundaries. Like the
 * counts, the series holds test and live invoices alike: they are all the terminal's traffic.
 */
export async function terminalStatistics(
  ctx: AppContext,
  merchantId: string,
  minutes: number,
): Promise<TerminalStatItem[]> {
  // counts over a window: on a streaming replica when one is close enough behind (lib/replica-read.ts)
  return readStatistics(ctx, (rows) => statisticsOf(ctx, rows, merchantId, minutes));
}

async function statisticsOf(
  ctx: AppContext,
  rows: RowsOf,
  merchantId: string,
  minutes: number,
): Promise<TerminalStatItem[]> {
  const now = ctx.now();
  const from = new Date(now.getTime() - minutes * 60_000);
  // "from day start" is sent rounded up to whole minutes, so `from` may sit seconds before a boundary (23:59:21
  // for a day starting at 00:00); the series starts at the next whole minute's bucket and those seconds fold into
  // it, so the chart does not begin with an almost empty bucket of yesterday.
  const seriesFrom = new Date(Math.ceil(from.getTime() / 60_000) * 60_000);
  const bucketMinutes = bucketMinutesFor(minutes);
  const step = sql`make_interval(mins => ${bucketMinutes}::int)`;
  const origin = sql`${BUCKET_ORIGIN}::timestamptz`;
  const fromTs = sql`${from.toISOString()}::timestamptz`;
  const nowTs = sql`${now.toISOString()}::timestamptz`;

  const ts = await rows<{
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

  const counts = await rows<{ terminal_id: string; status: string; n: number }>(sql`
    SELECT i.terminal_id, i.status, COUNT(*)::int AS n
    FROM invoices i
    WHERE i.merchant_id = ${merchantId} AND i.created_at > ${fromTs} AND i.created_at <= ${nowTs}
    GROUP BY 1, 2`);

  // one row per terminal of the merchant and bucket, empty buckets included
  const finished = sql.join(
    OUTCOME_STATUSES.map((st) => sql`${st}`),
    sql`, `,
  );
  const series = await rows<{
    terminal_id: string;
    t: string;
    total: number;
    done: number;
    finished: number;
  }>(sql`
    WITH first AS (SELECT date_bin(${step}, ${seriesFrom.toISOString()}::timestamptz, ${origin}) AS t),
    buckets AS (
      SELECT generate_series((SELECT t FROM first), date_bin(${step}, ${nowTs}, ${origin}), ${step}) AS t
    ),
    c AS (
      SELECT i.terminal_id,
        GREATEST(date_bin(${step}, i.created_at, ${origin}), (SELECT t FROM first)) AS t,
        COUNT(*)::int AS total,
        COUNT(*) FILTER (WHERE i.status = 'DONE')::int AS done,
        COUNT(*) FILTER (WHERE i.status IN (${finished}))::int AS finished
      FROM invoices i
      WHERE i.merchant_id = ${merchantId} AND i.created_at > ${fromTs} AND i.created_at <= ${nowTs}
      GROUP BY 1, 2
    )
    SELECT t.id AS terminal_id, to_char(b.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS t,
      COALESCE(c.total, 0) AS total, COALESCE(c.done, 0) AS done, COALESCE(c.finished, 0) AS finished
    FROM terminals t
    CROSS JOIN buckets b
    LEFT JOIN c ON c.terminal_id = t.id AND c.t = b.t
    WHERE t.merchant_id = ${merchantId}
    ORDER BY t.id, b.t`);

  const byStatus = new Map<string, Map<string, number>>();
  for (const r of counts) {
    if (!byStatus.has(r.terminal_id)) byStatus.set(r.terminal_id, new Map());
    byStatus.get(r.terminal_id)!.set(r.status, Number(r.n));
  }
  const pointsOf = new Map<string, TerminalStatItem['series']>();
  for (const r of series) {
    const total = Number(r.total);
    const done = Number(r.done);
    const finishedCount = Number(r.finished);
    if (!pointsOf.has(r.terminal_id)) pointsOf.set(r.terminal_id, []);
    pointsOf.get(r.terminal_id)!.push({
      t: r.t,
      total,
      successCount: done,
      finishedCount,
      successPercent: successRate(done, finishedCount),
    });
  }

  return ts.map((t) => {
    const s = byStatus.get(t.id);
    const c = (k: string) => s?.get(k) ?? 0;
    const total = s ? [...s.values()].reduce((a, b) => a + b, 0) : 0;
    const outcomes = { successCount: c('DONE'), cancelCount: c('CANCELED'), declinedCount: c('DECLINED') };
    const rates = outcomeRates(outcomes);
    return {
      terminalId: t.id,
      name: t.name,
      enable: t.enabled,
      total,
      newCount: c('NEW'),
      successCount: outcomes.successCount,
      successPercent: rates.successPercent,
      cancelCount: outcomes.cancelCount,
      cancelPercent: rates.cancelPercent,
      declinedCount: outcomes.declinedCount,
      declinedPercent: rates.declinedPercent,
      successPercentLowThreshold: threshold(t.low),
      successPercentHighThreshold: threshold(t.high),
      bucketMinutes,
      series: pointsOf.get(t.id) ?? [],
    };
  });
}
