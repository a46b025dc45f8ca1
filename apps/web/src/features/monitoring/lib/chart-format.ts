import { formatUtcTime } from '@paydesk/contracts/dates';
import type { SuccessPoint } from '@paydesk/contracts/monitoring';

const pluralRules = new Intl.PluralRules('en');

/** "1 invoice", "2 invoices", "0 invoices". */
export function countOf(n: number, one: string, other: string): string {
  return `${n.toLocaleString('en')} ${pluralRules.select(n) === 'one' ? one : other}`;
}

/** "10:00–10:05 UTC" for a bucket starting at `t` and lasting `bucketMinutes`. */
export function bucketRange(t: string, bucketMinutes: number): string {
  const start = new Date(t);
  return `${formatUtcTime(start)}–${formatUtcTime(start.getTime() + bucketMinutes * 60_000)} UTC`;
}

/**
 * "5 invoices: 2 of 3 finished successful (66.7%)"; "2 invoices: none finished yet" when the rate is undefined
 * (contracts' outcomeRates); "No invoices" for an empty bucket.
 */
export function bucketCounts(p: Pick<SuccessPoint, 'total' | 'successCount' | 'finishedCount' | 'successPercent'>) {
  if (!p.total) return 'No invoices';
  const all = countOf(p.total, 'invoice', 'invoices');
  if (p.successPercent === null) return `${all}: none finished yet`;
  return `${all}: ${p.successCount} of ${p.finishedCount} finished successful (${p.successPercent}%)`;
}

export type ThresholdBand = { from: number; to: number; color: string; label: string };

/**
 * The 0–100 % scale split by the terminal's thresholds: red below successPercentLowThreshold, orange between,
 * green at or above successPercentHighThreshold. A missing threshold drops its band; none set gives no bands.
 */
export function thresholdBands(low: number | null, high: number | null): ThresholdBand[] {
  const clamp = (v: number) => Math.min(100, Math.max(0, v));
  const bands: ThresholdBand[] = [];
  if (low !== null) bands.push({ from: 0, to: clamp(low), color: 'red', label: `below ${low}%` });
  if (high !== null) bands.push({ from: clamp(high), to: 100, color: 'teal', label: `${high}% and above` });
  if (low !== null && high !== null && high > low)
    bands.splice(1, 0, { from: clamp(low), to: clamp(high), color: 'orange', label: `${low}–${high}%` });
  return bands.filter((b) => b.to > b.from);
}
