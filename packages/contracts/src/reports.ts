import { z } from 'zod';
import { scopedQuery } from './common';
import { MAX_DB_ID } from './references';

export const REPORT_KINDS = ['invoice', 'balance', 'provider', 'pool/balance'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day as yyyy-MM-dd (report dates are sent as yyyy-MM-dd). */
export function isIsoDay(s: string): boolean {
  if (!ISO_DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const isoDay = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .refine(isIsoDay, `${label} must be a date as yyyy-MM-dd`);

const positiveId = (label: string) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int(`${label} must be a whole number`)
    .positive(`${label} is required`)
    .max(MAX_DB_ID, `${label} is not an id`);

/** A currency by its id (`currencyId`) or by its code (`currency`): exactly one of the two. */
const currencyRef = {
  currencyId: positiveId('currencyId').optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3,5}$/, 'currency must be a currency code, e.g. UZS')
    .optional(),
};
const oneCurrency = <T extends { currencyId?: number; currency?: string }>(v: T, ctx: z.RefinementCtx) => {
  if ((v.currencyId === undefined) === (v.currency === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['currencyId'],
      message: 'Name the currency once: currencyId (its id) or currency (its code)',
    });
  }
};

const period = {
  periodStart: isoDay('periodStart'),
  periodEnd: isoDay('periodEnd'),
};

const periodOrdered = <T extends { periodStart: string; periodEnd: string }>(v: T, ctx: z.RefinementCtx) => {
  if (v.periodStart > v.periodEnd) {
    ctx.addIssue({ code: 'custom', path: ['periodEnd'], message: 'periodEnd must not be before periodStart' });
  }
};

export const invoiceReportQuery = scopedQuery({
  ...period,
  terminalId: z.uuid('terminalId must be a UUID').optional(),
}).superRefine(periodOrdered);
export const balanceReportQuery = scopedQuery({
  ...period,
  ...currencyRef,
  terminalId: z.uuid('terminalId must be a UUID').optional(),
})
  .superRefine(periodOrdered)
  .superRefine(oneCurrency);
export const providerReportQuery = scopedQuery({
  ...period,
  ...currencyRef,
  providerId: positiveId('providerId'),
})
  .superRefine(periodOrdered)
  .superRefine(oneCurrency);
export const poolBalanceReportQuery = scopedQuery({
  ...period,
  terminalPoolId: positiveId('terminalPoolId'),
}).superRefine(periodOrdered);
export type InvoiceReportQuery = z.infer<typeof invoiceReportQuery>;
export type BalanceReportQuery = z.infer<typeof balanceReportQuery>;
export type ProviderReportQuery = z.infer<typeof providerReportQuery>;
export type PoolBalanceReportQuery = z.infer<typeof poolBalanceReportQuery>;

/** Column headers of each CSV. */
export const REPORT_COLUMNS = {
  invoice: [
    'invoice_id',
    'merchant_invoice_id',
    'created',
    'status',
    'flow',
    'amount',
    'fee',
    'currency',
    'terminal',
    'method',
  ],
  balance: [
    'date',
    'currency',
    'opening_balance',
    'deposits_credited',
    'withdrawals_paid',
    'fees',
    'settlements',
    'closing_balance',
  ],
  provider: [
    'account_id',
    'provider',
    'bank_name',
    'payment_method',
    'currency',
    'incoming_count',
    'incoming_sum',
    'payout_count',
    'payout_sum',
  ],
  'pool/balance': ['terminal_id', 'terminal', 'currency', 'deposit_sum', 'withdrawal_sum', 'net'],
} as const satisfies Record<ReportKind, readonly string[]>;

/** report-invoice-2026-11-01_2026-11-21.csv */
export const reportFileName = (kind: ReportKind, periodStart: string, periodEnd: string) =>
  `report-${kind.replace('/', '-')}-${periodStart}_${periodEnd}.csv`;

/** The web form of every report card: both dates required, from not after to. */
export const reportDatesForm = z
  .object({
    periodStart: z
      .string({ error: 'Date From is required' })
      .min(1, 'Date From is required')
      .refine(isIsoDay, 'Invalid date'),
    periodEnd: z
      .string({ error: 'Date To is required' })
      .min(1, 'Date To is required')
      .refine(isIsoDay, 'Invalid date'),
  })
  .superRefine((v, ctx) => {
    if (v.periodStart && v.periodEnd && v.periodStart > v.periodEnd) {
      ctx.addIssue({ code: 'custom', path: ['periodEnd'], message: 'Date To cannot precede Date From' });
    }
  });
export const balanceReportForm = reportDatesForm.and(
  z.object({ currencyId: z.string().min(1, 'Currency is required') }),
);
export const providerReportForm = reportDatesForm.and(
  z.object({
    currencyId: z.string().min(1, 'Currency is required'),
    providerId: z.string().min(1, 'Provider is required'),
  }),
);
export const poolBalanceReportForm = reportDatesForm.and(
  z.object({ terminalPoolId: z.string().min(1, 'Terminal pool is required') }),
);
export type ReportDatesForm = z.infer<typeof reportDatesForm>;
