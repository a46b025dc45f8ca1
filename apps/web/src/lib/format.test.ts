import { describe, expect, it } from 'vitest';
import { formatMoney } from '@paydesk/contracts/money';
import { formatCount, formatMoneyEn } from './format';

describe('formatMoneyEn', () => {
  const amounts: (number | bigint)[] = [0, 1, 5, 99, 100, 999, 1000, 12345, 150000, 1234567, -1, -100, -1234567];
  amounts.push(9007199254740991, 12345678901234567890n, -12345678901234567890n);
  it.each([0, 1, 2, 3])('writes what formatMoney writes in English, dimension %i', (dimension) => {
    for (const minor of amounts) {
      expect(formatMoneyEn(minor, dimension, 'UZS')).toBe(formatMoney(minor, dimension, 'en', 'UZS'));
      expect(formatMoneyEn(minor, dimension)).toBe(formatMoney(minor, dimension, 'en'));
    }
  });
});

describe('formatCount', () => {
  it('writes what toLocaleString("en") writes for counts', () => {
    for (const n of [0, 1, 12, 999, 1000, 10000, 10001, 123456, 1234567, 9007199254740991, -1234])
      expect(formatCount(n)).toBe(n.toLocaleString('en'));
  });
});
