import { z } from 'zod';
import { dataOf, scopedQuery } from './common';
import { ddMmYyyySchema } from './day-schema';
import {
  FLOW_TYPES,
  INVOICE_STATUS_CODES,
  INVOICE_STATUSES,
  TICKET_STATUSES,
  statusById,
  type InvoiceProcessing,
} from './statuses';

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

/** Repeated keys without index (?statusIds=1&statusIds=4): one value or many, always an array. */
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

const invoiceFilterShape = {
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

/* ---- The Invoice ---- */

const invoiceStatusRef = z.object({ id: z.int(), code: z.enum(INVOICE_STATUS_CODES), value: z.string() });

const invoiceSchema = z.object({
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

/** What the action rules of statuses.ts read beyond the status (InvoiceProcessing), as the invoice details send it. */
const invoiceProcessingSchema = z
  .object({
    pendingAttempt: z
      .int()
      .nullable()
      .meta({ description: 'The attempt of the provider transaction still pending for the invoice, or null' }),
    payoutDetailsGiven: z.boolean().meta({ description: "The customer gave the withdrawal's card or phone" }),
    paidOut: z.boolean().meta({ description: 'A payout of the withdrawal was paid by the provider' }),
    accountAssigned: z.boolean().meta({ description: 'A provider account is named on the invoice' }),
  })
  .meta({
    description:
      'What decides whether the engine would refuse a retry or a status change now (the rules the back-office applies ' +
      'to disable those actions and say why). Null for a caller who may neither read the invoice’s provider ' +
      'transactions nor retry or correct it.',
  }) satisfies z.ZodType<InvoiceProcessing>;

/** One invoice as its details page shows it: the Invoice, and what its actions depend on. */
const invoiceDetailsSchema = invoiceSchema.extend({ processing: invoiceProcessingSchema.nullable() });
export type InvoiceDetails = z.infer<typeof invoiceDetailsSchema>;
export const invoiceDetailsResponse = dataOf(invoiceDetailsSchema);

/** The state the action rules of statuses.ts read, from an API invoice (with `processing` from its details). */
export const invoiceRuleInput = (
  inv: Pick<Invoice, 'flowType' | 'invoiceStatus' | 'isTestProcessing'> & { processing?: InvoiceProcessing | null },
) => ({
  flowType: inv.flowType.code,
  status: inv.invoiceStatus.code,
  isTest: inv.isTestProcessing,
  processing: inv.processing ?? null,
});

/* ---- Dictionary ---- */

export const dictionaryParams = z.object({ name: z.string().max(64) }).strict();
export const invoiceStatusDictionaryResponse = dataOf(z.array(invoiceStatusRef));

/* ---- Actions ---- */

export const INVOICE_REASON_MAX = 500;
/** Every operator correction says why; the audit trail keeps it. */
const invoiceReason = z
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

/** What a merchant's staff are told of a platform employee who acted on their invoice: neither name nor id. */
export const PLATFORM_STAFF_LABEL = 'Platform staff';

/** Who set a status or caused an event; null for the engine, the customer and providers. */
const actingUserId = z.uuid().nullable().meta({
  description: `The user who acted; null for the engine, the customer or a provider, and for a platform employee when the reader is a merchant's staff`,
});

const invoiceStatusEvent = z.object({
  status: invoiceStatusRef,
  statusDate: z.iso.datetime({ offset: true }),
  userId: actingUserId,
});
export const invoiceStatusEventsResponse = dataOf(z.array(invoiceStatusEvent));

const invoiceErrorItem = z.object({ description: z.string(), eventTime: z.iso.datetime({ offset: true }) });
export const invoiceErrorsResponse = dataOf(z.array(invoiceErrorItem));

/** The user behind an event as the reader may know them. */
const eventUser = z.object({
  /** first and last name; PLATFORM_STAFF_LABEL for a platform employee when the reader is a merchant's staff */
  name: z.string(),
  /** null where the name is PLATFORM_STAFF_LABEL */
  username: z.string().nullable(),
});
export type EventUser = z.infer<typeof eventUser>;

/** Why routing passed over a provider account for a deposit, or `given`: the account whose requisites were given. */
const ROUTING_OUTCOMES = [
  'given',
  'disabled',
  'paused',
  'over limit',
  'no room under its limit',
  'amount taken',
  // another customer was being given its requisites at that moment: routing passed to the next account, not waiting
  'busy',
] as const;
const routingStep = z.object({ accountId: z.int(), outcome: z.enum(ROUTING_OUTCOMES) });
export type RoutingStep = z.infer<typeof routingStep>;

const invoiceEventItem = z.object({
  id: z.int(),
  code: z.string(),
  description: z.string(),
  eventTime: z.iso.datetime({ offset: true }),
  userId: actingUserId,
  /** null when no user acted (or the user is unknown) */
  user: eventUser.nullable(),
  /**
   * Platform staff only: how routing chose the provider account for the deposit, account by account, best first —
   * `given`, or why it was passed over.
   */
  routing: z.array(routingStep).optional(),
});
export const invoiceEventsResponse = dataOf(z.array(invoiceEventItem));

const invoiceTransactionItem = z.object({
  id: z.uuid(),
  status: z.string(),
  createDate: z.iso.datetime({ offset: true }),
  statusDate: z.iso.datetime({ offset: true }),
  type: z.string(),
  attempt: z.int(),
});
export const invoiceTransactionsResponse = dataOf(z.array(invoiceTransactionItem));

/* ---- Support tickets ---- */

export const supportInvoiceParams = z.object({ invoiceId: z.uuid() }).strict();
const supportTicketItem = z.object({
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

/**
 * The full requisite of an invoice (a withdrawal's card or phone, a deposit's account number), shown on purpose to a
 * holder of invoice.credentials.read: every reveal is audited (credentials.revealed) and limited per person and hour.
 */
export const invoiceRevealResponse = dataOf(z.object({ invoiceId: z.uuid(), value: z.string(), masked: z.string() }));
