import type { BankOption } from '@paydesk/contracts/payment-form';

// ё is written as е more often than not, so either finds the other
const normalize = (s: string) => s.toLocaleLowerCase().replace(/\s+/g, '').replace(/ё/g, 'е');

/**
 * SBP bank search: case- and whitespace-insensitive substring over the bank's own name and
 * its Latin name, so "Сбер" and "sber" both find Сбербанк.
 */
export function filterBanks(banks: readonly BankOption[], query: string): BankOption[] {
  const q = normalize(query);
  if (q === '') return [...banks];
  return banks.filter(
    (b) => normalize(b.value).includes(q) || (b.latinValue ? normalize(b.latinValue) : '').includes(q),
  );
}
