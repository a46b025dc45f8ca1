import type { BankOption } from '@paydesk/contracts/payment-form';

const normalize = (s: string) => s.toLocaleLowerCase().replace(/\s+/g, '');

/** SBP bank search: case- and whitespace-insensitive substring (SPEC §5). */
export function filterBanks(banks: readonly BankOption[], query: string): BankOption[] {
  const q = normalize(query);
  return q === '' ? [...banks] : banks.filter((b) => normalize(b.value).includes(q));
}
