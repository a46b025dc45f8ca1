import { describe, expect, it } from 'vitest';
import type { BankOption } from '@paydesk/contracts/payment-form';
import { filterBanks } from './banks';

const bank = (id: number, value: string, latinValue: string | null = null): BankOption => ({
  id,
  value,
  latinValue,
  countryCode: 'RU',
  codeInteger: id,
});
const banks = [
  bank(1, 'Сбербанк', 'Sberbank'),
  bank(2, 'Т-Банк (Тинькофф)', 'T-Bank (Tinkoff)'),
  bank(3, 'Альфа-Банк', 'Alfa-Bank'),
  bank(4, 'Kapitalbank'),
  bank(5, 'Почта Банк', 'Pochta Bank'),
];

describe('filterBanks', () => {
  it('matches a case- and whitespace-insensitive substring', () => {
    expect(filterBanks(banks, '  SBER ').map((b) => b.id)).toEqual([1]);
    expect(filterBanks(banks, 't-bank(tin').map((b) => b.id)).toEqual([2]);
    expect(filterBanks(banks, 'bank').map((b) => b.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('finds a bank by its Cyrillic and by its Latin name', () => {
    expect(filterBanks(banks, 'Сбер').map((b) => b.id)).toEqual([1]);
    expect(filterBanks(banks, 'сбер').map((b) => b.id)).toEqual([1]);
    expect(filterBanks(banks, 'sber').map((b) => b.id)).toEqual([1]);
    expect(filterBanks(banks, 'почтабанк').map((b) => b.id)).toEqual([5]);
    expect(filterBanks(banks, 'банк').map((b) => b.id)).toEqual([1, 2, 3, 5]);
  });

  it('treats ё as е', () => {
    expect(filterBanks([bank(6, 'Ёлка-Банк', 'Yolka')], 'елка').map((b) => b.id)).toEqual([6]);
  });

  it('returns everything for an empty query and nothing when no bank matches', () => {
    expect(filterBanks(banks, '')).toHaveLength(5);
    expect(filterBanks(banks, 'no such bank')).toEqual([]);
  });
});
