/**
 * English number formatting for the back-office's first screen without `Intl` (docs/performance.md): the first `Intl`
 * call of a page sets up ICU's number formats (≈ 10–20 ms of main thread, four times that on Lighthouse's mobile CPU),
 * and `formatMoney` builds two formatters per figure. The output is the same as `formatMoney(…, 'en', code)` and
 * `n.toLocaleString('en')` give (checked in format.test.ts).
 */
const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** An integer count with thousands separators, e.g. 10000 → "10,000" (as toLocaleString('en')). */
export function formatCount(n: number): string {
  return Number.isSafeInteger(n) ? `${n < 0 ? '-' : ''}${group(String(Math.abs(n)))}` : n.toLocaleString('en');
}

/**
 * Minor units in the currency's dimension, grouped, with the code: (150000, 2, 'UZS') → "1,500.00 UZS". (String
 * arithmetic as in contracts' minorToMajorString, not imported: the money module is a file of its own, shared with
 * the payment form, and one file less to fetch matters on the first screen.)
 */
export function formatMoneyEn(minor: number | bigint, dimension: number, currencyCode?: string): string {
  const v = BigInt(minor);
  const digits = (v < 0n ? -v : v).toString().padStart(dimension + 1, '0');
  const int = digits.slice(0, digits.length - dimension);
  const frac = digits.slice(digits.length - dimension);
  const body = `${v < 0n ? '-' : ''}${group(int)}${dimension > 0 ? `.${frac}` : ''}`;
  return currencyCode ? `${body} ${currencyCode}` : body;
}
