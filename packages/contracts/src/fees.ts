import { z } from 'zod';

/**
 * A terminal's fee in integer basis points (1 bp = 0.01 %), 0–10,000: the one parser and formatter
 * of the fee for the server, the terminal page and the migration of the old string attribute.
 */
export const FEE_BPS_MAX = 10_000;
export const FEE_MESSAGE = 'Fee must be a percentage from 0 to 100 with at most two decimals, e.g. 2.5';

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/** "2.5" → 250, "0" → 0, "100" → 10000; anything else (1.555, 150.0, -1, "") → null, never 0. */
export function parseFeePercent(input: string): number | null {
  const m = PERCENT.exec(input.trim());
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps <= FEE_BPS_MAX ? bps : null;
}

/** 250 → "2.5", 0 → "0", 1234 → "12.34". */
export function formatFeePercent(bps: number): string {
  const whole = Math.floor(bps / 100);
  const frac = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export const feeBpsSchema = z
  .int({ error: 'Fee must be a whole number of basis points' })
  .min(0, 'Fee cannot be negative')
  .max(FEE_BPS_MAX, 'Fee cannot exceed 100 %');

/** The fee on an amount, rounded half up, in exact integer arithmetic whatever the amount. */
export function feeFor(amount: number, bps: number): number {
  return Number((BigInt(amount) * BigInt(bps) + 5000n) / 10000n);
}
