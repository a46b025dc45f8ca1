import { z } from 'zod';
import { dataOf, scopedQuery } from './common';
import { INVOICE_STATUS_CODES } from './statuses';
import { exactInt } from './exact-json';

/** Balance, deposit and withdrawal sums (SPEC §3 "Balance item"): the first element is shown. */
export const LEDGER_BOOKS = ['live', 'test'] as const;
export type LedgerBook = (typeof LEDGER_BOOKS)[number];
/** `book=test` reads the test book that test terminals post to; live money is the default (DESIGN §1a). */
export const balanceQuery = scopedQuery({
  terminalId: z.uuid().optional(),
  book: z.enum(LEDGER_BOOKS).default('live'),
});
/** `sum` is exact at any size (contracts/exact-json.ts): a number, or a bigint past 2^53. */
export const balanceItem = z.object({ sum: exactInt(), currency: z.string() });
export type BalanceItem = z.infer<typeof balanceItem>;
export const balanceResponse = dataOf(z.array(balanceItem));

export const invoiceIdBody = z.object({ invoiceId: z.uuid() }).strict();
export const invoiceIdQuery = scopedQuery({ invoiceId: z.uuid() });

export const CALLBACK_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'NO_URL'] as const;
export const callbackAttempt = z.object({
  attemptedAt: z.iso.datetime(),
  responseCode: z.int().nullable(),
  latencyMs: z.int().nullable(),
  error: z.string().nullable(),
});
export const callbackItem = z.object({
  id: z.uuid(),
  status: z.enum(CALLBACK_STATUSES),
  invoiceStatus: z.string(),
  manual: z.boolean(),
  createDate: z.iso.datetime(),
  executionDate: z.iso.datetime().nullable(),
  attempts: z.array(callbackAttempt),
});
export type CallbackItem = z.infer<typeof callbackItem>;
export const callbackListResponse = dataOf(z.array(callbackItem));
export const callbackEnqueueResponse = dataOf(z.object({ id: z.uuid(), status: z.enum(CALLBACK_STATUSES) }));

/** The JSON body POSTed to a merchant (Standard Webhooks headers carry id, timestamp, signature). */
/** invoice.status: the status changed; invoice.amount_changed: an operator or the customer changed the amount; invoice.manual: sent by staff. */
export const WEBHOOK_TYPES = ['invoice.status', 'invoice.amount_changed', 'invoice.manual'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];
export const webhookPayload = z.object({
  type: z.enum(WEBHOOK_TYPES),
  invoiceId: z.uuid(),
  merchantInvoiceId: z.string(),
  status: z.enum(INVOICE_STATUS_CODES),
  amount: z.int(),
  currency: z.string(),
  statusDate: z.iso.datetime(),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

export const retryResponse = dataOf(
  z.object({ invoiceId: z.uuid(), status: z.enum(INVOICE_STATUS_CODES), transactionId: z.uuid(), attempt: z.int() }),
);

/** Callback retry schedule: 30 s doubling, capped at 1 h; given up after 72 h. */
export const CALLBACK_BACKOFF_BASE_MS = 30_000;
export const CALLBACK_BACKOFF_CAP_MS = 3_600_000;
export const CALLBACK_GIVE_UP_MS = 72 * 3_600_000;
export function callbackBackoffMs(attempts: number): number {
  const exp = Math.min(Math.max(attempts - 1, 0), 20);
  return Math.min(CALLBACK_BACKOFF_BASE_MS * 2 ** exp, CALLBACK_BACKOFF_CAP_MS);
}

/** The ledger's invariants, proven on demand (monitoring) and every 15 minutes by a worker. */
export const reconciliationSchema = z.object({
  checkedAt: z.iso.datetime(),
  /** balance rows that differ from the sum of their entries */
  drift: z.array(z.object({ key: z.string(), balance: exactInt(), entries: exactInt() })),
  /** books whose entries do not sum to zero in a currency */
  unbalanced: z.array(z.object({ book: z.enum(LEDGER_BOOKS), currencyId: z.int(), total: exactInt() })),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
export const reconciliationResponse = dataOf(reconciliationSchema);
