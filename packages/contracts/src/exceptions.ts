import { z } from 'zod';
import { dataOf } from './common';
import { LEDGER_BOOKS } from './engine';
import { exactInt } from './exact-int';
import { INCOMING_STATUSES } from './provider-api';
import { FLOW_TYPES, INVOICE_STATUS_CODES } from './statuses';

/*
 * The operations desk: payments that left the happy path, for platform staff. Unmatched money (incoming payments no
 * invoice took, on the books in suspense), contradictions between a provider's answer and the books, and suspense.
 */

const reason = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, { error: 'Give a reason (at least 3 characters)' })
  .max(500, { error: 'At most 500 characters' });

/** Keyset position of a list row: `<ISO time>_<id>` as the previous page's `next` gave it. */
const cursor = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z_[\w-]{1,64}$/, { error: 'Not a cursor this list gave' })
  .optional();
const pageLimit = z.coerce.number().int().min(1).max(200).default(50);

const idQuery = (name: string) => {
  const message = `${name} must be a positive whole number (an id)`;
  return z.coerce
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(2_147_483_647, {
      error: `${name} is not an id`,
    });
};
const minorQuery = (name: string) => {
  const message = `${name} must be a whole number of minor units, 0 or more`;
  return z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(0, { error: message })
    .max(Number.MAX_SAFE_INTEGER, { error: `${name} is too large` });
};
const instantQuery = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO date-time, e.g. 2026-11-27T10:00:00Z` });

/**
 * The filters of unmatched money, the same for its list and its CSV: provider, account, amount (minor units,
 * inclusive) and when it was reported (from inclusive, to exclusive).
 */
const incomingFilterShape = {
  providerId: idQuery('providerId').optional(),
  accountId: idQuery('accountId').optional(),
  amountFrom: minorQuery('amountFrom').optional(),
  amountTo: minorQuery('amountTo').optional(),
  from: instantQuery('from').optional(),
  to: instantQuery('to').optional(),
};
const INCOMING_FILTERS = Object.keys(incomingFilterShape) as (keyof typeof incomingFilterShape)[];
type IncomingFilters = { [K in keyof typeof incomingFilterShape]?: z.infer<(typeof incomingFilterShape)[K]> };

/** A range the wrong way round is refused rather than answered with nothing. */
function rangesInOrder(q: IncomingFilters, ctx: z.RefinementCtx) {
  if (q.amountFrom !== undefined && q.amountTo !== undefined && q.amountFrom > q.amountTo)
    ctx.addIssue({ code: 'custom', path: ['amountTo'], message: 'amountTo must not be below amountFrom' });
  if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to))
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
}

export const incomingQueueQuery = z
  .object({
    status: z.enum(INCOMING_STATUSES).optional(),
    ...incomingFilterShape,
    after: cursor,
    limit: pageLimit,
  })
  .strict()
  .superRefine(rangesInOrder);
export type IncomingQueueQuery = z.infer<typeof incomingQueueQuery>;

const incomingItem = z.object({
  id: z.uuid(),
  status: z.enum(INCOMING_STATUSES),
  providerId: z.int(),
  providerName: z.string(),
  accountId: z.int(),
  accountName: z.string(),
  amount: z.int(),
  currency: z.string(),
  book: z.enum(LEDGER_BOOKS),
  reference: z.string(),
  /** the payer's name as the bank showed it, when the provider reported it */
  payerName: z.string().nullable(),
  occurredAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  /** on the books in suspense when it arrived (money matched on arrival never was) */
  inSuspense: z.boolean(),
  matchedInvoiceId: z.uuid().nullable(),
  /** the deposit a provider's late confirmation named */
  hintInvoiceId: z.uuid().nullable(),
  resolvedAt: z.iso.datetime().nullable(),
  resolvedBy: z.string().nullable(),
  resolutionReason: z.string().nullable(),
  returnReference: z.string().nullable(),
});
export type IncomingItem = z.infer<typeof incomingItem>;
export const incomingQueueResponse = z.object({ data: z.array(incomingItem), next: z.string().nullable() });

/** A deposit the money may belong to, with why it is offered (higher score first). */
const incomingCandidate = z.object({
  invoiceId: z.uuid(),
  merchantId: z.uuid(),
  merchantName: z.string(),
  merchantInvoiceId: z.string(),
  status: z.enum(INVOICE_STATUS_CODES),
  amount: z.int(),
  accountId: z.int().nullable(),
  customer: z.string(),
  createdAt: z.iso.datetime(),
  score: z.int(),
  reasons: z.array(z.string()),
});
export type IncomingCandidate = z.infer<typeof incomingCandidate>;
export const incomingDetailResponse = dataOf(z.object({ item: incomingItem, candidates: z.array(incomingCandidate) }));

export const incomingMatchBody = z.object({ invoiceId: z.uuid({ error: 'Choose a deposit' }), reason }).strict();
export type IncomingMatchBody = z.infer<typeof incomingMatchBody>;
export const incomingReturnBody = z
  .object({
    /** the bank's reference of the return transfer */
    reference: z
      .string({ error: 'Give the reference of the return transfer' })
      .trim()
      .min(1, { error: 'Give the reference of the return transfer' })
      .max(128),
    reason,
  })
  .strict();
export type IncomingReturnBody = z.infer<typeof incomingReturnBody>;
export const incomingActionResponse = dataOf(incomingItem);

/** Suspense per currency and book: money that arrived and is not resolved yet (minor units). */
export const suspenseResponse = dataOf(
  z.array(z.object({ currency: z.string(), book: z.enum(LEDGER_BOOKS), amount: exactInt() })),
);

const CONTRADICTION_STATUSES = ['OPEN', 'RESOLVED'] as const;
/** ACCEPT_PROVIDER: the invoice follows the provider's answer (through the engine); KEEP_BOOKS: staff know better. */
const CONTRADICTION_RESOLUTIONS = ['ACCEPT_PROVIDER', 'KEEP_BOOKS'] as const;
export type ContradictionResolution = (typeof CONTRADICTION_RESOLUTIONS)[number];

export const contradictionListQuery = z
  .object({ status: z.enum(CONTRADICTION_STATUSES).optional(), after: cursor, limit: pageLimit })
  .strict();
export type ContradictionListQuery = z.infer<typeof contradictionListQuery>;

const contradictionItem = z.object({
  id: z.int(),
  status: z.enum(CONTRADICTION_STATUSES),
  invoiceId: z.uuid(),
  merchantId: z.uuid(),
  merchantName: z.string(),
  merchantInvoiceId: z.string(),
  flowType: z.enum(FLOW_TYPES),
  transactionId: z.uuid(),
  providerStatus: z.enum(['DONE', 'DECLINED']),
  booksStatus: z.enum(INVOICE_STATUS_CODES),
  /** the invoice's status now */
  invoiceStatus: z.enum(INVOICE_STATUS_CODES),
  amount: z.int(),
  currency: z.string(),
  /** what accepting the provider's answer would post, per ledger account (minor units, debit positive) */
  effect: z.array(z.object({ account: z.string(), amount: z.int() })),
  note: z.string().nullable(),
  createdAt: z.iso.datetime(),
  resolution: z.enum(CONTRADICTION_RESOLUTIONS).nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.iso.datetime().nullable(),
  reason: z.string().nullable(),
});
export type ContradictionItem = z.infer<typeof contradictionItem>;
export const contradictionListResponse = z.object({ data: z.array(contradictionItem), next: z.string().nullable() });
export const contradictionResolveBody = z
  .object({ resolution: z.enum(CONTRADICTION_RESOLUTIONS, { error: 'Choose a resolution' }), reason })
  .strict();
export type ContradictionResolveBody = z.infer<typeof contradictionResolveBody>;
export const contradictionResolveResponse = dataOf(contradictionItem);

export const intParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }).strict();

/*
 * Stuck payments: waiting longer than an operator should let them wait.
 * - PAYED: the customer pressed "Have paid" more than STUCK_PAYED_AFTER_MS ago and no money was reported;
 * - PAYOUT: a payout has been with the provider for more than STUCK_PAYOUT_AFTER_MS (also after staff decided);
 * - CALLBACK: the merchant's endpoint never took the invoice's latest callback (FAILED after the retry schedule).
 */
const STUCK_KINDS = ['PAYED', 'PAYOUT', 'CALLBACK'] as const;
/** The stuck queues' filter: one merchant's payments. */
const merchantFilter = z.uuid({ error: 'merchant must be a merchant id (a UUID)' });
export type StuckKind = (typeof STUCK_KINDS)[number];
export const STUCK_PAYED_AFTER_MS = 30 * 60_000;
export const STUCK_PAYOUT_AFTER_MS = 60 * 60_000;

export const stuckQuery = z
  .object({
    kind: z.enum(STUCK_KINDS, { error: 'Choose PAYED, PAYOUT or CALLBACK' }),
    merchant: merchantFilter.optional(),
    after: cursor,
    limit: pageLimit,
  })
  .strict();
export type StuckQuery = z.infer<typeof stuckQuery>;
const stuckItem = z.object({
  kind: z.enum(STUCK_KINDS),
  invoiceId: z.uuid(),
  merchantId: z.uuid(),
  merchantName: z.string(),
  merchantInvoiceId: z.string(),
  flowType: z.enum(FLOW_TYPES),
  status: z.enum(INVOICE_STATUS_CODES),
  amount: z.int(),
  currency: z.string(),
  /** since when it has been waiting */
  since: z.iso.datetime(),
  /** what it waits for, in words */
  detail: z.string(),
  /** what an operator does next, in words */
  nextStep: z.string(),
});
export type StuckItem = z.infer<typeof stuckItem>;
export const stuckResponse = z.object({ data: z.array(stuckItem), next: z.string().nullable() });

/** The desk's queues, each with its size and its oldest item (what the navigation and the alerts count). */
export const EXCEPTION_QUEUES = [
  'unmatched',
  'payedStuck',
  'payoutStuck',
  'callbacksFailed',
  'contradictions',
  'pausedAccounts',
  'statementExceptions',
] as const;
export type ExceptionQueue = (typeof EXCEPTION_QUEUES)[number];
export const exceptionSummaryResponse = dataOf(
  z.array(z.object({ queue: z.enum(EXCEPTION_QUEUES), count: z.int(), oldestAt: z.iso.datetime().nullable() })),
);

/**
 * The queues that download as CSV: unmatched money, the stuck kinds, open contradictions, paused accounts (these with
 * their health figures; for staff who may view provider accounts).
 */
const EXCEPTION_CSV_QUEUES = ['unmatched', ...STUCK_KINDS, 'contradictions', 'paused'] as const;
export type ExceptionCsvQueue = (typeof EXCEPTION_CSV_QUEUES)[number];
/** The filters each queue's CSV takes: those of its list on the desk (unmatched money's, or the stuck queues'). */
const exceptionCsvFilters = (queue: ExceptionCsvQueue): readonly string[] =>
  queue === 'unmatched' ? INCOMING_FILTERS : (STUCK_KINDS as readonly string[]).includes(queue) ? ['merchant'] : [];
export const exceptionCsvQuery = z
  .object({
    queue: z.enum(EXCEPTION_CSV_QUEUES, { error: 'Choose a queue' }),
    ...incomingFilterShape,
    merchant: merchantFilter.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    // a filter the queue does not have is refused: a file that quietly ignored it would not be what was asked for
    const takes = exceptionCsvFilters(q.queue);
    for (const key of [...INCOMING_FILTERS, 'merchant'] as const) {
      if (q[key] !== undefined && !takes.includes(key))
        ctx.addIssue({ code: 'custom', path: [key], message: `The ${q.queue} queue has no ${key} filter` });
    }
    rangesInOrder(q, ctx);
  });
export type ExceptionCsvQuery = z.infer<typeof exceptionCsvQuery>;
