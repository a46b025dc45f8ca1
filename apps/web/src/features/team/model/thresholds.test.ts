import { describe, expect, it } from 'vitest';
import { rowsToThresholds, thresholdsText, thresholdsToRows, type CurrencyRef } from './thresholds';

const CURRENCIES: CurrencyRef[] = [
  { code: 'UZS', dimension: 2 },
  { code: 'KZT', dimension: 2 },
  { code: 'JPY', dimension: 0 },
  { code: 'BHD', dimension: 3 },
];

describe('policy thresholds: minor units on the wire, major units on screen', () => {
  it('shows each threshold in major units of its currency, by code', () => {
    expect(thresholdsToRows({ UZS: 100_000_000, JPY: 5000, BHD: 1500 }, CURRENCIES)).toEqual([
      { code: 'BHD', major: '1.500' },
      { code: 'JPY', major: '5000' },
      { code: 'UZS', major: '1000000.00' },
    ]);
    expect(thresholdsToRows({}, CURRENCIES)).toEqual([]);
  });

  it('sends minor units by the currency’s decimals, exactly', () => {
    expect(
      rowsToThresholds(
        [
          { code: 'UZS', major: '1000000' },
          { code: 'JPY', major: '5000' },
          { code: 'BHD', major: '1.5' },
          { code: 'KZT', major: '0.29' },
        ],
        CURRENCIES,
      ),
    ).toEqual({ ok: true, thresholds: { UZS: 100_000_000, JPY: 5000, BHD: 1500, KZT: 29 } });
    // spaces between digit groups are fine; what comes back out is what went in
    const rows = [{ code: 'UZS', major: '1 250 000.50' }];
    const r = rowsToThresholds(rows, CURRENCIES);
    expect(r).toEqual({ ok: true, thresholds: { UZS: 125_000_050 } });
    expect(thresholdsToRows(r.ok ? r.thresholds : {}, CURRENCIES)).toEqual([{ code: 'UZS', major: '1250000.50' }]);
    expect(rowsToThresholds([], CURRENCIES)).toEqual({ ok: true, thresholds: {} });
  });

  it('says what is wrong with each row instead of sending it', () => {
    expect(
      rowsToThresholds(
        [
          { code: '', major: '10' },
          { code: 'UZS', major: '10.123' },
          { code: 'JPY', major: '1.5' },
          { code: 'KZT', major: '' },
          { code: 'BHD', major: 'ten' },
        ],
        CURRENCIES,
      ),
    ).toEqual({
      ok: false,
      errors: {
        0: 'Choose a currency',
        1: 'The threshold must have at most 2 decimals',
        2: 'The threshold must be a whole number',
        3: 'The threshold is required',
        4: 'The threshold must be a number, e.g. 1500.50',
      },
    });
    expect(
      rowsToThresholds(
        [
          { code: 'UZS', major: '1' },
          { code: 'UZS', major: '2' },
        ],
        CURRENCIES,
      ),
    ).toEqual({ ok: false, errors: { 1: 'UZS is listed twice' } });
    expect(rowsToThresholds([{ code: 'UZS', major: '99999999999999999' }], CURRENCIES)).toEqual({
      ok: false,
      errors: { 0: 'The threshold is too large' },
    });
  });

  it('says in words what the thresholds mean', () => {
    expect(thresholdsText({}, CURRENCIES)).toBe('Every amount');
    expect(thresholdsText({ UZS: 100_000_000, JPY: 5000 }, CURRENCIES)).toBe(
      'From 5,000 JPY, 1,000,000.00 UZS; other currencies: every amount',
    );
  });
});
