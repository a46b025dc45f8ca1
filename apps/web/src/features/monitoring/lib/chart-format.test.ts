import { describe, expect, it } from 'vitest';
import { bucketCounts, bucketRange, countOf, thresholdBands } from './chart-format';

describe('monitoring chart texts', () => {
  it('countOf: singular only for one', () => {
    expect(countOf(1, 'invoice', 'invoices')).toBe('1 invoice');
    expect(countOf(2, 'invoice', 'invoices')).toBe('2 invoices');
    expect(countOf(0, 'invoice', 'invoices')).toBe('0 invoices');
    expect(countOf(1234, 'invoice', 'invoices')).toBe('1,234 invoices');
  });

  it('bucketRange: start to end of the bucket in UTC, across the hour', () => {
    expect(bucketRange('2030-01-15T09:55:00Z', 5)).toBe('09:55–10:00 UTC');
    expect(bucketRange('2030-01-15T23:00:00Z', 60)).toBe('23:00–00:00 UTC');
  });

  it('bucketCounts: successes of the finished with the plural; none finished; no invoices', () => {
    expect(bucketCounts({ total: 5, successCount: 2, finishedCount: 3, successPercent: 66.7 })).toBe(
      '5 invoices: 2 of 3 finished successful (66.7%)',
    );
    expect(bucketCounts({ total: 1, successCount: 1, finishedCount: 1, successPercent: 100 })).toBe(
      '1 invoice: 1 of 1 finished successful (100%)',
    );
    expect(bucketCounts({ total: 2, successCount: 0, finishedCount: 0, successPercent: null })).toBe(
      '2 invoices: none finished yet',
    );
    expect(bucketCounts({ total: 0, successCount: 0, finishedCount: 0, successPercent: null })).toBe('No invoices');
  });

  it('thresholdBands: red below low, orange between, green from high', () => {
    expect(thresholdBands(60, 85)).toEqual([
      { from: 0, to: 60, color: 'red', label: 'below 60%' },
      { from: 60, to: 85, color: 'orange', label: '60–85%' },
      { from: 85, to: 100, color: 'teal', label: '85% and above' },
    ]);
    expect(thresholdBands(null, null)).toEqual([]);
    expect(thresholdBands(60, null).map((b) => [b.from, b.to])).toEqual([[0, 60]]);
    expect(thresholdBands(null, 90).map((b) => [b.from, b.to])).toEqual([[90, 100]]);
    expect(thresholdBands(0, 100).map((b) => b.color)).toEqual(['orange']);
  });
});
