/**
 * Money is integer minor units with the currency's dimension (decimal places).
 * Conversions are string-based; never multiply floats.
 */

/** Minor units → decimal string with exactly `dimension` fraction digits, e.g. (150000, 2) → "1500.00". */
export function minorToMajorString(minor: number | bigint, dimension: number): string {
  const v = BigInt(minor);
  const neg = v < 0n;
  const abs = (neg ? -v : v).toString().padStart(dimension + 1, '0');
  const int = abs.slice(0, abs.length - dimension);
  const frac = abs.slice(abs.length - dimension);
  return `${neg ? '-' : ''}${int}${dimension > 0 ? `.${frac}` : ''}`;
}

/** Decimal string ("1500", "1500.5", "1500.50") → minor units, or null when not a valid amount for the dimension. */
export function majorStringToMinor(input: string, dimension: number): number | null {
  const s = input.trim();
  const m = /^(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > dimension) return null;
  const digits = `${m[1]}${frac.padEnd(dimension, '0')}`;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** Locale formatting with the dimension as min and max fraction digits. */
export function formatMoney(minor: number | bigint, dimension: number, locale = 'en', currencyCode?: string): string {
  const s = minorToMajorString(minor, dimension);
  const [int, frac] = s.replace('-', '').split('.');
  const grouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(BigInt(int ?? '0'));
  const decimalSep = new Intl.NumberFormat(locale).formatToParts(1.1).find((p) => p.type === 'decimal')?.value ?? '.';
  const body = `${minor < 0 ? '-' : ''}${grouped}${frac ? `${decimalSep}${frac}` : ''}`;
  return currencyCode ? `${body} ${currencyCode}` : body;
}

export type AmountInputResult = { ok: true; minor: number; display: string } | { ok: false; error: string };

export const AMOUNT_INPUT_ERRORS = {
  empty: 'Change the value',
  decimals: 'There must be max two decimals after comma',
  /** an amount the change body refuses (changeInvoiceAmountBody: positive), said before the confirmation step */
  positive: 'The amount must be greater than 0',
} as const;

/** Strip an amount input to digits and the first dot. */
export function sanitizeAmountInput(raw: string): string {
  const kept = raw.replace(/[^\d.]/g, '');
  const dot = kept.indexOf('.');
  return dot === -1 ? kept : kept.slice(0, dot + 1) + kept.slice(dot + 1).replace(/\./g, '');
}

/**
 * The amount-change parser: digits and dots only, at most two decimals,
 * sent as minor units by the currency dimension. `display` is the amount as people read it everywhere else
 * (formatMoney: grouped, the dimension's decimals, with the currency code when given), never the typed text.
 */
export function parseAmountChange(raw: string, dimension: number, currencyCode?: string): AmountInputResult {
  const s = sanitizeAmountInput(raw);
  if (s === '' || s === '.') return { ok: false, error: AMOUNT_INPUT_ERRORS.empty };
  const [int = '', frac] = s.split('.');
  if (frac !== undefined && frac.length > 2) return { ok: false, error: AMOUNT_INPUT_ERRORS.decimals };
  const minor = majorStringToMinor(`${int === '' ? '0' : int}${frac ? `.${frac}` : ''}`, dimension);
  if (minor === null) return { ok: false, error: AMOUNT_INPUT_ERRORS.decimals };
  return { ok: true, minor, display: formatMoney(minor, dimension, 'en', currencyCode) };
}

/**
 * A typed major-unit amount ("1500", "1500.5", "1 500.50") → its minor units as a digit string, exact at any size
 * (a limit may pass 2^53), or null when it is not a non-negative amount with at most `dimension` decimals. Spaces
 * between digit groups are ignored; a comma is refused rather than guessed (a thousands or a decimal separator?).
 * Nothing is ever multiplied as a float.
 */
export function majorStringToMinorDigits(input: string, dimension: number): string | null {
  const s = input.replace(/\s/g, '');
  const m = /^(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[1] === '' && !m[2])) return null;
  const frac = m[2] ?? '';
  if (frac.length > dimension) return null;
  return `${m[1]}${frac.padEnd(dimension, '0')}`.replace(/^0+(?=\d)/, '');
}

/** What a major-unit amount field shows for a stored minor-unit value: "1500.00" for (150000, 2); '' for none. */
export const minorToMajorInput = (minor: number | bigint | string | null | undefined, dimension: number): string =>
  minor === null || minor === undefined || minor === '' ? '' : minorToMajorString(BigInt(minor), dimension);

/** The message for a typed major-unit amount, or null when it is one: required, a number, at most `dimension` decimals. */
export function majorAmountIssue(label: string, input: string, dimension: number): string | null {
  const s = input.replace(/\s/g, '');
  if (s === '') return `${label} is required`;
  if (!/^(\d+\.?\d*|\.\d+)$/.test(s)) return `${label} must be a number, e.g. 1500.50`;
  if (majorStringToMinorDigits(s, dimension) === null)
    return dimension === 0 ? `${label} must be a whole number` : `${label} must have at most ${dimension} decimals`;
  return null;
}
