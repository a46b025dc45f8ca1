import { z } from 'zod';
import { dataOf, scopedQuery } from './common';

/** Period choices of SPEC §9: 0 = from UTC day start (sent as minutes since UTC midnight), 1 h, 3 h. */
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
export type TerminalStatisticQuery = z.infer<typeof terminalStatisticQuery>;

/** Share of `part` in `total` in percent with one decimal; 0 when there is nothing to share. */
export function percentOf(part: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((part * 1000) / total) / 10;
}

export const successPoint = z.object({
  /** Bucket start (UTC clock boundary), ISO; the bucket lasts `bucketMinutes` of its terminal item. */
  t: z.iso.datetime(),
  /** Invoices created in the bucket (within the period). */
  total: z.int(),
  /** Of which DONE. */
  successCount: z.int(),
  /** null when the bucket has no invoices. */
  successPercent: z.number().nullable(),
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
  successPercent: z.number(),
  cancelCount: z.int(),
  cancelPercent: z.number(),
  declinedCount: z.int(),
  declinedPercent: z.number(),
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
export const statisticMerchant = z.object({
  merchantId: z.uuid(),
  name: z.string(),
  terminals: z.array(z.object({ terminalId: z.uuid(), name: z.string(), enable: z.boolean() })),
});
export type StatisticMerchant = z.infer<typeof statisticMerchant>;
export const statisticSettingsResponse = dataOf(z.array(statisticMerchant));

export type SuccessLevel = 'low' | 'mid' | 'high' | 'none';
/** Red below low, amber between, green at or above high (thresholds from the terminal's attributes). */
export function successLevel(percent: number, low: number | null, high: number | null, hasData = true): SuccessLevel {
  if (!hasData) return 'none';
  if (low !== null && percent < low) return 'low';
  if (high !== null && percent >= high) return 'high';
  if (low === null && high === null) return 'none';
  return high === null ? 'high' : 'mid';
}
