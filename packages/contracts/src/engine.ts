import { z } from 'zod';
import { dataOf, scopedQuery } from './common';
import { FLOW_TYPES, INVOICE_STATUS_CODES } from './statuses';
import { exactInt } from './exact-int';

/** Balance, deposit and withdrawal sums, one item per currency (the terminal's currency first). */
export const LEDGER_BOOKS = ['live', 'test'] as const;
export type LedgerBook = (typeof LEDGER_BOOKS)[number];
/** `book=test` reads the test book that test terminals post to; live money is the default. */
export const balanceQuery = scopedQuery({
  terminalId: z.uuid().optional(),
  book: z.enum(LEDGER_BOOKS).default('live'),
});
/** `sum` is exact at any size (contracts/exact-json.ts): a number, or a bigint past 2^53. */
const balanceItem = z.object({ sum: exactInt(), currency: z.string() });
export type BalanceItem = z.infer<typeof balanceItem>;
export const balanceResponse = dataOf(z.array(balanceItem));

export const invoiceIdBody = z.object({ invoiceId: z.uuid() }).strict();
export const invoiceIdQuery = scopedQuery({ invoiceId: z.uuid() });

export const CALLBACK_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'NO_URL'] as const;
const callbackAttempt = z.object({
  attemptedAt: z.iso.datetime(),
  responseCode: z.int().nullable(),
  latencyMs: z.int().nullable(),
  error: z.string().nullable(),
});
/**
 * A callback as the demo's own receiver got it (outside production the demo terminals deliver to
 * /api/demo/callbacks): the Standard Webhooks headers, the raw body, and what the verifier said.
 */
const callbackReceipt = z.object({
  receivedAt: z.iso.datetime(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  verified: z.boolean(),
  result: z.string(),
});
export type CallbackReceipt = z.infer<typeof callbackReceipt>;
const callbackItem = z.object({
  id: z.uuid(),
  status: z.enum(CALLBACK_STATUSES),
  invoiceStatus: z.string(),
  manual: z.boolean(),
  createDate: z.iso.datetime(),
  executionDate: z.iso.datetime().nullable(),
  attempts: z.array(callbackAttempt),
  /** what the demo receiver got for this callback (empty when it went elsewhere) */
  received: z.array(callbackReceipt),
});
export type CallbackItem = z.infer<typeof callbackItem>;
export const callbackListResponse = dataOf(z.array(callbackItem));
export const callbackEnqueueResponse = dataOf(z.object({ id: z.uuid(), status: z.enum(CALLBACK_STATUSES) }));

/**
 * The callbacks Paydesk POSTs to a merchant: invoice.status when the status changed,
 * invoice.amount_changed when an operator or the customer changed the amount, invoice.manual when
 * staff sent one by hand. The body is this schema, built and checked by the server before it is
 * stored; the Standard Webhooks headers carry the id, timestamp and signature.
 */
export const WEBHOOK_TYPES = ['invoice.status', 'invoice.amount_changed', 'invoice.manual'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];
export const WEBHOOK_DESCRIPTIONS: Record<WebhookType, { summary: string; description: string }> = {
  'invoice.status': {
    summary: 'An invoice changed status',
    description:
      'Sent in the same transaction as the change (never lost): when a customer pays and the provider confirms ' +
      '(DONE), when it is declined, cancelled or expires, and on every other status change.',
  },
  'invoice.amount_changed': {
    summary: 'An invoice’s amount changed',
    description: 'An operator corrected the amount, or the customer paid a different amount that was accepted.',
  },
  'invoice.manual': {
    summary: 'Sent again by hand',
    description: 'Staff pressed "Send callback" on the invoice: the current state, e.g. after your endpoint was down.',
  },
};
export const webhookPayload = z
  .object({
    type: z.enum(WEBHOOK_TYPES).meta({ description: 'What happened.' }),
    invoiceId: z.uuid().meta({ description: 'Paydesk’s invoice id.' }),
    merchantInvoiceId: z.string().meta({ description: 'Your id, as sent when creating the invoice.' }),
    flowType: z.enum(FLOW_TYPES).meta({ description: 'DEPOSIT (money in) or WITHDRAWAL (money out).' }),
    status: z.enum(INVOICE_STATUS_CODES).meta({ description: 'The status now. DONE is final and means paid.' }),
    amount: z.int().min(0).meta({ description: 'The amount now, in minor units of the currency.' }),
    currency: z.string().meta({ description: 'ISO 4217 code, e.g. UZS.' }),
    isTest: z.boolean().meta({ description: 'A test invoice (sandbox terminal): no real money moved.' }),
    statusDate: z.iso.datetime().meta({ description: 'When the status was set (UTC).' }),
  })
  .strict()
  .meta({ description: 'The body of every callback.' });
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
const reconciliationSchema = z.object({
  checkedAt: z.iso.datetime(),
  /** balance rows that differ from the sum of their entries */
  drift: z.array(z.object({ key: z.string(), balance: exactInt(), entries: exactInt() })),
  /** books whose entries do not sum to zero in a currency */
  unbalanced: z.array(z.object({ book: z.enum(LEDGER_BOOKS), currencyId: z.int(), total: exactInt() })),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
export const reconciliationResponse = dataOf(reconciliationSchema);
