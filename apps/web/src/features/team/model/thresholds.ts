import type { ApprovalAction } from '@paydesk/contracts/approvals';
import { majorAmountIssue, majorStringToMinorDigits, minorToMajorInput } from '@paydesk/contracts/money';
import { formatMoneyEn } from '../../../lib/format';

/** A currency as the reference list gives it: its code and its number of decimals. */
export type CurrencyRef = { code: string; dimension: number };

/** One threshold as the Policies tab edits it: a currency and an amount typed in its major units ("1000000.00"). */
export type ThresholdRow = { code: string; major: string };

/** The actions a threshold means something for: they move an amount. Replacing an API key has none. */
export const ACTIONS_WITH_AMOUNT: ReadonlySet<ApprovalAction> = new Set<ApprovalAction>([
  'invoice.status.change',
  'invoice.amount.change',
  'settlement.create',
  'people.account.edit',
  'incoming.resolve',
]);

/** The decimals of a currency code; 2 for a code the reference list does not know (it would be refused anyway). */
const dimensionOf = (code: string, currencies: readonly CurrencyRef[]) =>
  currencies.find((c) => c.code === code)?.dimension ?? 2;

/** A policy's thresholds (minor units per currency code) as rows to edit, by currency code. */
export function thresholdsToRows(
  thresholds: Readonly<Record<string, number>>,
  currencies: readonly CurrencyRef[],
): ThresholdRow[] {
  return Object.keys(thresholds)
    .sort()
    .map((code) => ({ code, major: minorToMajorInput(thresholds[code], dimensionOf(code, currencies)) }));
}

export type ThresholdsResult =
  | { ok: true; thresholds: Record<string, number> }
  /** by row index: what is wrong with it */
  | { ok: false; errors: Record<number, string> };

/**
 * The rows as the API takes them: minor units per currency code, converted with each currency's decimals (never as
 * a float). A row without a currency, a currency listed twice, or an amount that is not one is an error of its row.
 */
export function rowsToThresholds(rows: readonly ThresholdRow[], currencies: readonly CurrencyRef[]): ThresholdsResult {
  const thresholds: Record<string, number> = {};
  const errors: Record<number, string> = {};
  rows.forEach((row, i) => {
    if (!row.code) {
      errors[i] = 'Choose a currency';
      return;
    }
    if (rows.findIndex((r) => r.code === row.code) !== i) {
      errors[i] = `${row.code} is listed twice`;
      return;
    }
    const dimension = dimensionOf(row.code, currencies);
    const issue = majorAmountIssue('The threshold', row.major, dimension);
    if (issue) {
      errors[i] = issue;
      return;
    }
    const minor = Number(majorStringToMinorDigits(row.major, dimension));
    if (!Number.isSafeInteger(minor)) {
      errors[i] = 'The threshold is too large';
      return;
    }
    thresholds[row.code] = minor;
  });
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, thresholds };
}

/** What a policy's thresholds mean, in words: "Every amount", or "From 1,000,000.00 UZS; other currencies: every amount". */
export function thresholdsText(
  thresholds: Readonly<Record<string, number>>,
  currencies: readonly CurrencyRef[],
): string {
  const codes = Object.keys(thresholds).sort();
  if (codes.length === 0) return 'Every amount';
  const from = codes.map((code) => formatMoneyEn(thresholds[code]!, dimensionOf(code, currencies), code)).join(', ');
  return `From ${from}; other currencies: every amount`;
}
