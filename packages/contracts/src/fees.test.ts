import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FEE_BPS_MAX, feeFor, formatFeePercent, parseFeePercent } from './fees';

describe('fees in basis points', () => {
  it('parses percentages with at most two decimals between 0 and 100, and nothing else', () => {
    expect(parseFeePercent('2.5')).toBe(250);
    expect(parseFeePercent(' 1.55 ')).toBe(155);
    expect(parseFeePercent('0')).toBe(0);
    expect(parseFeePercent('100')).toBe(10_000);
    for (const bad of ['1.555', '150.0', '100.01', '-1', '', '1,5', '.5', '1.', 'abc', '1e2'])
      expect(parseFeePercent(bad), bad).toBeNull();
  });
  it('formats back to the same value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: FEE_BPS_MAX }), (bps) => parseFeePercent(formatFeePercent(bps)) === bps),
    );
    expect(formatFeePercent(250)).toBe('2.5');
    expect(formatFeePercent(1234)).toBe('12.34');
  });
  it('charges half-up in exact integers, even for amounts past 2^53 / 10,000', () => {
    expect(feeFor(150_000_00, 250)).toBe(375_000);
    expect(feeFor(1, 5000)).toBe(1);
    expect(feeFor(1, 4999)).toBe(0);
    expect(feeFor(9_000_000_000_000_00, 150)).toBe(135_000_000_000_00);
  });
});
