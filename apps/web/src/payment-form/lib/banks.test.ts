import { describe, expect, it } from 'vitest';
import { filterBanks } from './banks';

const banks = [
  { id: 1, value: 'Sberbank', codeInteger: 1 },
  { id: 2, value: 'T-Bank (Tinkoff)', codeInteger: 2 },
  { id: 3, value: 'Alfa-Bank', codeInteger: 3 },
];

describe('filterBanks', () => {
  it('matches a case- and whitespace-insensitive substring', () => {
    expect(filterBanks(banks, '  SBER ').map((b) => b.id)).toEqual([1]);
    expect(filterBanks(banks, 't-bank(tin').map((b) => b.id)).toEqual([2]);
    expect(filterBanks(banks, 'bank').map((b) => b.id)).toEqual([1, 2, 3]);
  });

  it('returns everything for an empty query and nothing when no bank matches', () => {
    expect(filterBanks(banks, '')).toHaveLength(3);
    expect(filterBanks(banks, 'no such bank')).toEqual([]);
  });
});
