import { z } from 'zod';
import { dataOf, scopedQuery } from './common';
import { FINAL_STATUSES } from './statuses';

/** Period choices: 0 = from UTC day start (sent as minutes since UTC midnight), 1 h, 3 h. */
export const MONITORING_PERIODS = [
  { value: 0, label: 'From day start' },
  { value: 60, label: '1 h' },
  { value: 180, label: '3 h' },
] as const;
export const MONITORING_DEFAULT_PERIOD = 60;
export const MONITORING_REFRESH_MS = 60_000;
/**
 * Bucket size of the success-rate series for a period of `minutes`: about 8 to 24 points whatever the period,
 * on UTC clock boundaries (5 min for 1 h, 15 min for 3 h, hourly once "from day start" passes six hours).
 * Every size divides a day, so buckets line up with UTC midnight.
 */
export function bucketMinutesFor(minutes: number): number {
  if (minutes <= 60) return 5;
  if (minutes <= 180) return 15;
  if (minutes <= 360) return 30;
  return 60;
}

/** Minutes elapsed since UTC midnight, at least 1 so that the period is never empty. */
export function minutesSinceUtcMidnight(now: Date): number {
  const ms = now.getTime() - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.max(1, Math.ceil(ms / 60_000));
}

/** The `minutes` query value for a period choice. */
export const periodMinutes = (period: number, now: Date) => (period === 0 ? minutesSinceUtcMidnight(now) : period);

export const terminalStatisticQuery = scopedQuery({
  minutes: z.coerce
    .number({ error: 'minutes must be a number' })
    .int('minutes must be a whole number')
    .min(1, 'minutes must be at least 1')
    .max(1440, 'minutes must be at most 1440 (one day)'),
});

/** Share of `part` in `total` in percent with one decimal; 0 when there is nothing to share. */
export function percentOf(part: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((part * 1000) / total) / 10;
}

/** The statuses an invoice's outcome is read from: it has finished there (success, or one of two failures). */
export const OUTCOME_STATUSES = FINAL_STATUSES;

export type OutcomeCounts = { successCount: number; cancelCount: number; declinedCount: number };
export type OutcomeRates = {
  successPercent: number | null;
  cancelPercent: number | null;
  declinedPercent: number | null;
};

/**
 * The one rule for monitoring's rates, used by the server that computes them and by the web that colours them:
 * each outcome's share of the invoices that have finished (DONE, CANCELED or DECLINED). Invoices still under way
 * (NEW, IN_PROGRESS, PAYED) have no outcome yet, so they count neither as a success nor as a failure: a terminal
 * whose invoices were all just created has not failed. With none finished the rates are undefined (null), shown
 * as "no data" rather than 0 %.
 */
export function outcomeRates({ successCount, cancelCount, declinedCount }: OutcomeCounts): OutcomeRates {
  const finished = successCount + cancelCount + declinedCount;
  if (finished <= 0) return { successPercent: null, cancelPercent: null, declinedPercent: null };
  return {
    successPercent: percentOf(successCount, finished),
    cancelPercent: percentOf(cancelCount, finished),
    declinedPercent: percentOf(declinedCount, finished),
  };
}

/** The success rate alone (see outcomeRates): DONE among the finished, null when none has finished. */
export const successRate = (successCount: number, finishedCount: number): number | null =>
  finishedCount > 0 ? percentOf(successCount, finishedCount) : null;

const RATE_NOTE =
  'Percent with one decimal of the invoices that reached a final status (DONE, CANCELED, DECLINED); null when ' +
  'none has (every invoice still NEW, IN_PROGRESS or PAYED, or no invoice at all): the rate is undefined, not 0.';

const successPoint = z.object({
  /** Bucket start (UTC clock boundary), ISO; the bucket lasts `bucketMinutes` of its terminal item. */
  t: z.iso.datetime(),
  /** Invoices created in the bucket (within the period). */
  total: z.int(),
  /** Of which DONE. */
  successCount: z.int(),
  /** Of which finished: DONE, CANCELED or DECLINED. */
  finishedCount: z.int(),
  /** DONE among the finished; null when none of the bucket's invoices has finished (or it has none). */
  successPercent: z.number().nullable().meta({ description: RATE_NOTE }),
});
export type SuccessPoint = z.infer<typeof successPoint>;

export const terminalStatItem = z.object({
  terminalId: z.uuid(),
  name: z.string(),
  enable: z.boolean(),
  /** Invoices created in the period; 0 means "no data". */
  total: z.int(),
  newCount: z.int(),
  successCount: z.int(),
  /** See outcomeRates: DONE among the finished invoices; null when none has finished ("no data", not 0 %). */
  successPercent: z.number().nullable().meta({ description: RATE_NOTE }),
  cancelCount: z.int(),
  cancelPercent: z.number().nullable().meta({ description: RATE_NOTE }),
  declinedCount: z.int(),
  declinedPercent: z.number().nullable().meta({ description: RATE_NOTE }),
  successPercentLowThreshold: z.number().nullable(),
  successPercentHighThreshold: z.number().nullable(),
  /** Length of each series bucket, see bucketMinutesFor. */
  bucketMinutes: z.int(),
  /** Success rate per bucket, oldest first, from the bucket holding the period start to the one holding now. */
  series: z.array(successPoint),
});
export type TerminalStatItem = z.infer<typeof terminalStatItem>;
export const terminalStatisticResponse = dataOf(z.array(terminalStatItem));

export const statisticSettingsQuery = scopedQuery({});
const statisticMerchant = z.object({
  merchantId: z.uuid(),
  name: z.string(),
  terminals: z.array(z.object({ terminalId: z.uuid(), name: z.string(), enable: z.boolean() })),
});
export type StatisticMerchant = z.infer<typeof statisticMerchant>;
export const statisticSettingsResponse = dataOf(z.array(statisticMerchant));

export type SuccessLevel = 'low' | 'mid' | 'high' | 'none';
/**
 * Red below low, amber between, green at or above high (thresholds from the terminal's attributes); 'none'
 * (neutral) when the rate is undefined (see outcomeRates) or no threshold is set.
 */
export function successLevel(percent: number | null, low: number | null, high: number | null): SuccessLevel {
  if (percent === null) return 'none';
  if (low !== null && percent < low) return 'low';
  if (high !== null && percent >= high) return 'high';
  if (low === null && high === null) return 'none';
  return high === null ? 'high' : 'mid';
}
