import { z } from 'zod';
import { dataOf, scopedQuery } from './common';
import { ddMmYyyySchema } from './day-schema';
import { FLOW_TYPES, INVOICE_STATUS_CODES, INVOICE_STATUSES, TICKET_STATUSES, statusById } from './statuses';

export * from './invoice-list';
import {
  INVOICE_DEFAULT_PAGE_SIZE,
  INVOICE_MAX_PAGE_SIZE,
  INVOICE_MIN_PAGE_SIZE,
  INVOICE_SEARCH_MAX,
  INVOICE_TOTAL_CAP,
  decodeInvoiceCursor,
} from './invoice-list';

/* ---- Query of GET /api/v1/invoice and /api/v1/invoice/csv ---- */

/** An empty query value means "not given" (the web drops them; hand-made URLs may still carry them). */
const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const minorUnits = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Repeated keys without index (?statusIds=1&statusIds=4, SPEC §5): one value or many, always an array. */
const statusIds = z.preprocess(
  (v) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : [v]),
  z
    .array(
      z.coerce
        .number()
        .int()
        .refine((id) => statusById(id) !== undefined, { message: 'Unknown invoice status id' }),
    )
    .max(INVOICE_STATUSES.length)
    .optional(),
);

export const invoiceFilterShape = {
  search: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z.string().max(INVOICE_SEARCH_MAX).optional(),
  ),
  terminalId: optional(z.uuid()),
  statusIds,
  dateFrom: optional(ddMmYyyySchema),
  dateTo: optional(ddMmYyyySchema),
  lastStatusDate: optional(ddMmYyyySchema),
  flowType: optional(z.enum(FLOW_TYPES)),
  sumFrom: optional(minorUnits),
  sumTo: optional(minorUnits),
};

export const invoiceCsvQuery = scopedQuery(invoiceFilterShape);
export type InvoiceFilter = z.infer<typeof invoiceCsvQuery>;

const cursor = z.preprocess(
  blankToUndefined,
  z
    .string()
    .max(120)
    .transform((token, ctx) => {
      const c = decodeInvoiceCursor(token);
      if (!c) ctx.addIssue({ code: 'custom', message: 'Not a list position (use nextCursor or prevCursor as given)' });
      return c ?? z.NEVER;
    })
    .optional()
    .meta({ description: 'A nextCursor (after) or prevCursor (before) of an earlier answer: keyset pagination.' }),
);

export const invoiceListQuery = scopedQuery({
  ...invoiceFilterShape,
  page: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(0)),
  size: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(INVOICE_MIN_PAGE_SIZE).max(INVOICE_MAX_PAGE_SIZE).default(INVOICE_DEFAULT_PAGE_SIZE),
  ),
  after: cursor,
  before: cursor,
}).superRefine((q, ctx) => {
  if (q.after && q.before)
    ctx.addIssue({ code: 'custom', path: ['before'], message: 'Give after or before, not both' });
  if ((q.after || q.before) && q.page > 0) {
    ctx.addIssue({ code: 'custom', path: ['page'], message: 'A cursor replaces the page number' });
  }
  // page numbers reach as far as the capped total: past it, OFFSET would read every row before the page
  if (q.page * q.size >= INVOICE_TOTAL_CAP) {
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message: `Page numbers reach the first ${INVOICE_TOTAL_CAP.toLocaleString('en-US')} invoices; go on with after=nextCursor`,
    });
  }
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

/** GET /api/v1/invoice/count: the exact number of invoices matching the filters, beyond the list's cap. */
export const invoiceCountResponse = dataOf(z.object({ total: z.int() }));

/* ---- The Invoice of SPEC §3 ---- */

export const invoiceStatusRef = z.object({ id: z.int(), code: z.enum(INVOICE_STATUS_CODES), value: z.string() });
export type InvoiceStatusRef = z.infer<typeof invoiceStatusRef>;

export const invoiceSchema = z.object({
  invoiceId: z.uuid(),
  merchantInvoiceId: z.string(),
  /** null without invoice.provider.read */
  providerInvoiceId: z.string().nullable(),
  createdDate: z.iso.datetime({ offset: true }),
  amount: z.int(),
  fee: z.int(),
  currency: z.object({ id: z.int(), code: z.string(), name: z.string(), dimension: z.int() }),
  flowType: z.object({ code: z.enum(FLOW_TYPES) }),
  invoiceStatus: invoiceStatusRef,
  statusDate: z.iso.datetime({ offset: true }),
  isTestProcessing: z.boolean(),
  customer: z
    .object({ externalId: z.string(), people: z.object({ firstName: z.string(), lastName: z.string() }) })
    .nullable(),
  terminal: z.object({ id: z.uuid(), name: z.string() }),
  paymentMethod: z.object({ paymentMethod: z.object({ name: z.string() }) }).nullable(),
  /** The requisite (deposit) or the customer's payout card/phone (withdrawal); null without invoice.credentials.read. */
  account: z.object({ value: z.string() }).nullable(),
  credentials: z
    .object({ bankName: z.string().nullable(), owner: z.string().nullable(), provider: z.string().nullable() })
    .nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListResponse = z.object({
  data: z.array(invoiceSchema),
  /** Exact up to INVOICE_TOTAL_CAP; the cap itself when totalIsCapped. */
  total: z.int(),
  totalIsCapped: z.boolean(),
  /** The next (older) page: pass as `after`; null on the last page. */
  nextCursor: z.string().nullable(),
  /** The previous (newer) page: pass as `before`; null on the first page. */
  prevCursor: z.string().nullable(),
});
export type InvoiceListResponse = z.infer<typeof invoiceListResponse>;
export const invoiceResponse = dataOf(invoiceSchema);

/** The state the visibility rules of statuses.ts read, from an API invoice. */
export const invoiceRuleInput = (inv: Pick<Invoice, 'flowType' | 'invoiceStatus' | 'isTestProcessing'>) => ({
  flowType: inv.flowType.code,
  status: inv.invoiceStatus.code,
  isTest: inv.isTestProcessing,
});

/* ---- Dictionary ---- */

export const DICTIONARY_NAMES = ['InvoiceStatus'] as const;
export const dictionaryParams = z.object({ name: z.string().max(64) }).strict();
export const invoiceStatusDictionaryResponse = dataOf(z.array(invoiceStatusRef));

/* ---- Actions ---- */

export const INVOICE_REASON_MAX = 500;
/** Every operator correction says why (DESIGN §3); the audit trail keeps it. */
export const invoiceReason = z
  .string({ error: 'Reason is required' })
  .trim()
  .min(3, 'Reason must be at least 3 characters long')
  .max(INVOICE_REASON_MAX, `Reason must be at most ${INVOICE_REASON_MAX} characters long`);
const reason = invoiceReason;

export const changeInvoiceStatusBody = z
  .object({
    invoiceId: z.uuid(),
    statusId: z.int().refine((id) => statusById(id) !== undefined, { message: 'Unknown invoice status id' }),
    reason,
    /** a deposit set DONE with no routed account: the provider account the money arrived on */
    peopleAccountId: z.int().positive('Choose the account the money arrived on').optional(),
  })
  .strict();
export type ChangeInvoiceStatusBody = z.infer<typeof changeInvoiceStatusBody>;

export const changeInvoiceAmountBody = z
  .object({
    invoiceId: z.uuid(),
    amount: z.int().positive('Amount must be a positive integer in minor units').max(Number.MAX_SAFE_INTEGER),
    reason,
  })
  .strict();
export type ChangeInvoiceAmountBody = z.infer<typeof changeInvoiceAmountBody>;

/* ---- Invoice history sections ---- */

export const invoiceStatusEvent = z.object({
  status: invoiceStatusRef,
  statusDate: z.iso.datetime({ offset: true }),
  userId: z.uuid().nullable(),
});
export type InvoiceStatusEvent = z.infer<typeof invoiceStatusEvent>;
export const invoiceStatusEventsResponse = dataOf(z.array(invoiceStatusEvent));

export const invoiceErrorItem = z.object({ description: z.string(), eventTime: z.iso.datetime({ offset: true }) });
export type InvoiceErrorItem = z.infer<typeof invoiceErrorItem>;
export const invoiceErrorsResponse = dataOf(z.array(invoiceErrorItem));

export const invoiceEventItem = z.object({
  id: z.int(),
  code: z.string(),
  description: z.string(),
  eventTime: z.iso.datetime({ offset: true }),
  userId: z.uuid().nullable(),
});
export type InvoiceEventItem = z.infer<typeof invoiceEventItem>;
export const invoiceEventsResponse = dataOf(z.array(invoiceEventItem));

export const invoiceTransactionItem = z.object({
  id: z.uuid(),
  status: z.string(),
  createDate: z.iso.datetime({ offset: true }),
  statusDate: z.iso.datetime({ offset: true }),
  type: z.string(),
  attempt: z.int(),
});
export type InvoiceTransactionItem = z.infer<typeof invoiceTransactionItem>;
export const invoiceTransactionsResponse = dataOf(z.array(invoiceTransactionItem));

/* ---- Support tickets ---- */

export const supportInvoiceParams = z.object({ invoiceId: z.uuid() }).strict();
export const supportTicketItem = z.object({
  id: z.int(),
  description: z.string(),
  createDate: z.iso.datetime({ offset: true }),
  status: z.object({ code: z.enum(TICKET_STATUSES.map((s) => s.code) as [string, ...string[]]), value: z.string() }),
});
export type SupportTicketItem = z.infer<typeof supportTicketItem>;
export const supportTicketsResponse = dataOf(z.array(supportTicketItem));
/**
 * Approving a ticket sets its invoice DONE. A deposit that was never routed names the account the
 * money arrived on (`peopleAccountId`), as a status change to DONE does.
 */
export const ticketDecisionBody = z
  .object({
    ticketId: z.int().positive().max(2_147_483_647),
    peopleAccountId: z.int().positive('Choose the account the money arrived on').max(2_147_483_647).optional(),
  })
  .strict();
export const supportTicketResponse = dataOf(supportTicketItem);

/* ---- CSV export ---- */

/** The header row of Invoices.csv, in column order. */
export const INVOICE_CSV_COLUMNS = [
  'Invoice ID',
  'Merchant Invoice ID',
  'Provider Invoice ID',
  'Created',
  'Status Date',
  'Flow Type',
  'Status',
  'Amount',
  'Fee',
  'Currency',
  'Test',
  'Terminal ID',
  'Terminal',
  'User ID',
  'First Name',
  'Last Name',
  'Payment Method',
] as const;
