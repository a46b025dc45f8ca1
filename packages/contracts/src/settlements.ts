import { z } from 'zod';
import { dataOf, scopedQuery } from './common';
import { majorStringToMinor } from './money';
import { exactInt } from './exact-int';

/** The settlement amount is denominated in USDT, 6 decimals. */
export const USDT_DIMENSION = 6;

/** Without the terminal known, base amounts may have this many decimals; the server checks the currency's own. */
const MAX_BASE_DIMENSION = 6;

/** A JS number as the plain decimal string it was written as ("1500.5"), or null for NaN, ±Infinity or exponent forms. */
export function numberToDecimalString(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  const s = String(n);
  return /^-?\d+(\.\d+)?$/.test(s) ? s : null;
}

/** Decimal places of a number as written, or Infinity when it has no plain decimal form. */
export function decimalsOf(n: number): number {
  const s = numberToDecimalString(n);
  if (s === null) return Number.POSITIVE_INFINITY;
  return s.includes('.') ? s.split('.')[1]!.length : 0;
}

/** A major-unit number → integer minor units through its decimal string (never float math); null when it does not fit. */
export function numberToMinor(n: number, dimension: number): number | null {
  const s = numberToDecimalString(n);
  return s === null ? null : majorStringToMinor(s, dimension);
}

/**
 * An amount as the API takes it: a JSON number, never text. A JSON integer past 2^53 arrives exactly as a bigint
 * (exact-json.ts) and is answered as too large rather than rounded (a settlement is in major units: even the largest
 * currency needs no more). A number in quotes is refused: only the web form types text, and it converts it itself.
 */
const amountNumber = (label: string, text: 'refused' | 'typed') =>
  z
    .number({
      error: (iss) => {
        if (iss.input === undefined) return `${label} is required`;
        if (typeof iss.input === 'bigint') return `${label} is too large`;
        if (typeof iss.input === 'string' && text === 'refused') return `${label} must be a number, not a string`;
        return `${label} must be a number`;
      },
    })
    .positive(`${label} must be greater than 0`);

const withDecimals = (number: z.ZodNumber, label: string, dimension: number, checkSize: boolean) =>
  number
    .refine(
      (n) => decimalsOf(n) <= dimension,
      dimension === 0 ? `${label} must be a whole number` : `${label} must have at most ${dimension} decimals`,
    )
    .refine(
      (n) => !checkSize || decimalsOf(n) > dimension || numberToMinor(n, dimension) !== null,
      `${label} is too large`,
    );

/** What a text input holds ("1 500,5" is not a number; " 1500,5 " is 1500.5; "" is nothing), for the web form. */
const typedNumber = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const s = v.trim().replace(',', '.');
  if (s === '') return undefined;
  return /^\d+(\.\d+)?$/.test(s) ? Number(s) : v;
};

/**
 * The settlement body: baseAmount in major units of the terminal's currency, settlementAmount in USDT,
 * both JSON numbers. The server checks baseAmount's decimals against the terminal's currency.
 */
export const settlementBody = z
  .object({
    baseAmount: withDecimals(amountNumber('Base amount', 'refused'), 'Base amount', MAX_BASE_DIMENSION, false),
    settlementAmount: withDecimals(
      amountNumber('Settlement amount', 'refused'),
      'Settlement amount',
      USDT_DIMENSION,
      true,
    ),
    terminalId: z.uuid('terminalId must be a UUID'),
    /** why, for the record (and the approval request, when a policy holds settlements for a second person) */
    reason: z.string().trim().min(3, 'Give a reason (at least 3 characters)').max(500).optional(),
  })
  .strict();
export type SettlementBody = z.infer<typeof settlementBody>;

/**
 * The web form's schema: the same rules over what the text inputs hold, coerced to the numbers the body carries.
 * `baseDimension` is the terminal currency's dimension when known (the form knows it from the balance tile).
 */
export const makeSettlementSchema = (baseDimension?: number) =>
  z
    .object({
      baseAmount: z.preprocess(
        typedNumber,
        withDecimals(
          amountNumber('Base amount', 'typed'),
          'Base amount',
          baseDimension ?? MAX_BASE_DIMENSION,
          baseDimension !== undefined,
        ),
      ),
      settlementAmount: z.preprocess(
        typedNumber,
        withDecimals(amountNumber('Settlement amount', 'typed'), 'Settlement amount', USDT_DIMENSION, true),
      ),
      terminalId: z.uuid('terminalId must be a UUID'),
    })
    .strict();

export const settlementCreateQuery = scopedQuery({});

const settlementSchema = z.object({
  id: z.int(),
  terminalId: z.uuid(),
  currency: z.string(),
  /** Minor units of the terminal's currency. */
  baseAmount: z.int(),
  /** USDT micro-units (6 decimals). */
  settlementAmount: z.int(),
  /** The merchant's balance in that currency after the settlement, minor units. */
  balanceAfter: exactInt(),
  createdAt: z.iso.datetime(),
});
export const settlementResponse = dataOf(settlementSchema);

export const INSUFFICIENT_BALANCE_MESSAGE = 'Settlement exceeds the available balance';
