import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AMOUNT_INPUT_ERRORS,
  formatMoney,
  majorStringToMinor,
  minorToMajorString,
  parseAmountChange,
  sanitizeAmountInput,
} from './money';

describe('minor/major conversions', () => {
  it('converts by dimension without floats', () => {
    expect(minorToMajorString(150000, 2)).toBe('1500.00');
    expect(minorToMajorString(5, 2)).toBe('0.05');
    expect(minorToMajorString(-1234, 2)).toBe('-12.34');
    expect(minorToMajorString(1234567, 6)).toBe('1.234567');
    expect(minorToMajorString(42, 0)).toBe('42');
    expect(majorStringToMinor('1500', 2)).toBe(150000);
    expect(majorStringToMinor('1500.5', 2)).toBe(150050);
    expect(majorStringToMinor('0.07', 2)).toBe(7);
    expect(majorStringToMinor('1.234', 2)).toBeNull();
    expect(majorStringToMinor('abc', 2)).toBeNull();
  });

  it('round-trips every integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 6 }), (n, d) => {
        expect(majorStringToMinor(minorToMajorString(n, d), d)).toBe(n);
      }),
    );
  });

  it('formats for the locale with the dimension as fraction digits', () => {
    expect(formatMoney(150000, 2, 'en')).toBe('1,500.00');
    expect(formatMoney(150000, 2, 'en', 'UZS')).toBe('1,500.00 UZS');
    expect(formatMoney(100000000, 2, 'ru')).toMatch(/^1\s000\s000,00$/);
    expect(formatMoney(-5, 2, 'en')).toBe('-0.05');
  });
});

describe('amount change input', () => {
  it('strips to digits and the first dot', () => {
    expect(sanitizeAmountInput('1a2.3.4b')).toBe('12.34');
    expect(sanitizeAmountInput(' 1 000,50')).toBe('100050');
  });
  it('empty → Change the value; more than two decimals → error', () => {
    expect(parseAmountChange('', 2)).toEqual({ ok: false, error: AMOUNT_INPUT_ERRORS.empty });
    expect(parseAmountChange('abc', 2)).toEqual({ ok: false, error: 'Change the value' });
    expect(parseAmountChange('1.234', 2)).toEqual({ ok: false, error: 'There must be max two decimals after comma' });
  });
  it('sends minor units by the currency dimension', () => {
    expect(parseAmountChange('1500', 2)).toMatchObject({ ok: true, minor: 150000 });
    expect(parseAmountChange('1500.5', 2)).toMatchObject({ ok: true, minor: 150050 });
    expect(parseAmountChange('12.34', 2)).toMatchObject({ ok: true, minor: 1234 });
    expect(parseAmountChange('7', 0)).toMatchObject({ ok: true, minor: 7 });
  });
  it('says the amount as the page shows amounts: grouped, with the decimals and the currency, never as typed', () => {
    expect(parseAmountChange('3600', 2, 'RUB')).toEqual({ ok: true, minor: 360000, display: '3,600.00 RUB' });
    expect(parseAmountChange('1500.5', 2, 'UZS')).toEqual({ ok: true, minor: 150050, display: '1,500.50 UZS' });
    expect(parseAmountChange('12.34', 2)).toEqual({ ok: true, minor: 1234, display: '12.34' });
    expect(parseAmountChange('.5', 2, 'RUB')).toMatchObject({ display: '0.50 RUB' });
    expect(parseAmountChange('1500', 0, 'KRW')).toMatchObject({ minor: 1500, display: '1,500 KRW' });
  });
});
