import { describe, expect, it } from 'vitest';
import { majorAmountIssue, majorStringToMinorDigits, minorToMajorInput } from './money';

describe('major-unit amount fields', () => {
  it('typed major units → exact minor-unit digits, by the dimension, at any size', () => {
    expect(majorStringToMinorDigits('1500', 2)).toBe('150000');
    expect(majorStringToMinorDigits('1500.5', 2)).toBe('150050');
    expect(majorStringToMinorDigits('20 000 000', 2)).toBe('2000000000');
    expect(majorStringToMinorDigits('.5', 2)).toBe('50');
    expect(majorStringToMinorDigits('0', 2)).toBe('0');
    expect(majorStringToMinorDigits('0.00', 2)).toBe('0');
    expect(majorStringToMinorDigits('007', 0)).toBe('7');
    expect(majorStringToMinorDigits('1.000001', 6)).toBe('1000001');
    // past 2^53, digit for digit (a float would round it)
    expect(majorStringToMinorDigits('90071992547409.93', 2)).toBe('9007199254740993');
    for (const bad of ['', '.', '1.234', '-1', '1,5', '1e3', 'abc', '1.2.3'])
      expect(majorStringToMinorDigits(bad, 2), bad).toBeNull();
  });

  it('a stored minor-unit value as the field shows it', () => {
    expect(minorToMajorInput(2_000_000_000, 2)).toBe('20000000.00');
    expect(minorToMajorInput('9007199254740993', 2)).toBe('90071992547409.93');
    expect(minorToMajorInput(9007199254740993n, 2)).toBe('90071992547409.93');
    expect(minorToMajorInput(5, 0)).toBe('5');
    expect(minorToMajorInput(null, 2)).toBe('');
  });

  it('messages: required, a number, the decimals the currency has', () => {
    expect(majorAmountIssue('Limit', '', 2)).toBe('Limit is required');
    expect(majorAmountIssue('Limit', 'abc', 2)).toBe('Limit must be a number, e.g. 1500.50');
    expect(majorAmountIssue('Limit', '1,5', 2)).toBe('Limit must be a number, e.g. 1500.50');
    expect(majorAmountIssue('Limit', '1.234', 2)).toBe('Limit must have at most 2 decimals');
    expect(majorAmountIssue('Limit', '1.5', 0)).toBe('Limit must be a whole number');
    expect(majorAmountIssue('Limit', '1 500.25', 2)).toBeNull();
  });
});
