import { z } from 'zod';
import { dataOf } from './common';
import { APPROVAL_STATUSES } from './approvals';
import { statusById } from './statuses';

/*
 * Provider statements reconciled against the books (docs/operations.md, "Provider statements"): a provider's file of
 * what arrived on and left its accounts in a period, each line matched with the money the books recorded.
 */

/**
 * How a line came out: MATCHED (the books have it: same account, amount and reference, within the time tolerance);
 * STATEMENT_ONLY (the bank saw it, the books did not); BOOKS_ONLY (the books have it, the statement does not: an entry
 * without a line number); MISMATCH (found by its reference, but the account, amount, time or payout status differ, or
 * the reference is repeated in the file).
 */
export const STATEMENT_OUTCOMES = ['MATCHED', 'STATEMENT_ONLY', 'BOOKS_ONLY', 'MISMATCH'] as const;
export type StatementOutcome = (typeof STATEMENT_OUTCOMES)[number];

const STATEMENT_DIRECTIONS = ['IN', 'OUT'] as const;
export type StatementDirection = (typeof STATEMENT_DIRECTIONS)[number];

/** The fields of a statement line, in the default file's column order (its header, as is). */
export const STATEMENT_FIELDS = ['occurredAt', 'accountId', 'amount', 'direction', 'reference'] as const;
export type StatementField = (typeof STATEMENT_FIELDS)[number];
export const DEFAULT_STATEMENT_HEADER = STATEMENT_FIELDS.join(',');
/**
 * The optional field of a statement line: the counterparty's card or phone number as the bank names it (a payout's
 * destination, a deposit's payer). A card is 13–19 digits passing the Luhn check, spaces or dashes allowed between
 * them; a phone is '+' and 9–15 digits (spaces, dashes, brackets allowed), or 9–12 digits without the '+'. Never stored:
 * only its keyed lookup hash (the one invoices' `credential_hash` is) and its masked form are, and an OUT line is
 * compared with its payout's requisite by that hash (docs/operations.md, "Provider statements").
 */
export const STATEMENT_COUNTERPARTY = 'counterparty';

/** A line and the books' record of it may be this far apart in time and still match. */
export const STATEMENT_TIME_TOLERANCE_MS = 24 * 3_600_000;
/** The largest file taken (a million lines of the default format is about 60 MB). */
export const STATEMENT_MAX_BYTES = 256 * 1024 * 1024;
/** The multipart part that holds the file. */
export const STATEMENT_FILE_FIELD = 'file';
/** A reference longer than this is refused (the books keep incoming references up to 128 characters). */
export const STATEMENT_REFERENCE_MAX = 128;
/** The daily summary covers at most this many days. */
const STATEMENT_SUMMARY_MAX_DAYS = 366;

/**
 * MATCH: the line is the given incoming payment or payout; ACCEPT: staff accept the difference, with a reason;
 * APPROVAL: the books are wrong, and a correction of the invoice behind the line (its status or its amount) is asked
 * for, always held for a second person's approval. A rejected or expired request leaves the line to resolve again.
 */
const STATEMENT_RESOLUTIONS = ['MATCH', 'ACCEPT', 'APPROVAL'] as const;
export type StatementResolution = (typeof STATEMENT_RESOLUTIONS)[number];

const reason = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, { error: 'Give a reason (at least 3 characters)' })
  .max(500, { error: 'At most 500 characters' });

const providerIdOf = (name: string) => {
  const message = `${name} must be a provider id (a positive whole number)`;
  return z.coerce
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(2_147_483_647, { error: message });
};
const instant = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO date-time, e.g. 2026-11-27T00:00:00Z` });

/** The form fields sent with the file (before it: the file is read as it arrives). */
export const statementUploadFields = z
  .object({
    providerId: providerIdOf('providerId'),
    /** the period the statement covers: from inclusive, to exclusive */
    periodFrom: instant('periodFrom'),
    periodTo: instant('periodTo'),
  })
  .strict()
  .superRefine((f, ctx) => {
    const from = Date.parse(f.periodFrom);
    const to = Date.parse(f.periodTo);
    if (from >= to) ctx.addIssue({ code: 'custom', path: ['periodTo'], message: 'periodTo must be after periodFrom' });
    else if (to - from > STATEMENT_SUMMARY_MAX_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['periodTo'], message: 'A statement covers at most 366 days' });
  });
export type StatementUploadFields = z.infer<typeof statementUploadFields>;

const outcomeCounts = z.object({
  MATCHED: z.int(),
  STATEMENT_ONLY: z.int(),
  BOOKS_ONLY: z.int(),
  MISMATCH: z.int(),
});
export type StatementCounts = z.infer<typeof outcomeCounts>;

const statementItem = z.object({
  id: z.uuid(),
  providerId: z.int(),
  providerName: z.string(),
  periodFrom: z.iso.datetime(),
  periodTo: z.iso.datetime(),
  filename: z.string(),
  /** sha256 of the file's bytes, hex: the same file is recognised by it */
  contentHash: z.string(),
  /** lines in the file (the header not counted) */
  lineCount: z.int(),
  /** entries per outcome, BOOKS_ONLY included */
  counts: outcomeCounts,
  /** exceptions (every outcome but MATCHED) not resolved yet */
  open: z.int(),
  uploadedAt: z.iso.datetime(),
  uploadedBy: z.string().nullable(),
});
export type StatementItem = z.infer<typeof statementItem>;

/** 201: a new statement; 200 with `duplicate: true`: this provider's same file (by content hash) was uploaded before. */
export const statementUploadResponse = dataOf(z.object({ statement: statementItem, duplicate: z.boolean() }));

/** Keyset position of the statement list: `<ISO time>_<id>` as the previous page's `next` gave it. */
const cursor = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z_[0-9a-f-]{36}$/i, { error: 'Not a cursor this list gave' })
  .optional();
const pageLimit = z.coerce.number().int().min(1).max(200).default(50);

export const statementListQuery = z
  .object({ providerId: providerIdOf('providerId').optional(), after: cursor, limit: pageLimit })
  .strict();
export type StatementListQuery = z.infer<typeof statementListQuery>;
export const statementListResponse = z.object({ data: z.array(statementItem), next: z.string().nullable() });

const statementLineItem = z.object({
  /** the exception's id, to resolve it by; null for a MATCHED line (nothing to resolve) */
  id: z.int().nullable(),
  statementId: z.uuid(),
  /** the file's line number (the header is line 1); null for a BOOKS_ONLY entry */
  lineNo: z.int().nullable(),
  occurredAt: z.iso.datetime(),
  accountId: z.int(),
  /** minor units of `currency` (the account's) */
  amount: z.int(),
  currency: z.string(),
  direction: z.enum(STATEMENT_DIRECTIONS),
  /** the bank's reference; a card or phone number in it is masked */
  reference: z.string(),
  /** the counterparty's card (BIN + last four) or phone (its middle hidden) the line named, masked; null: none named */
  counterparty: z.string().nullable(),
  outcome: z.enum(STATEMENT_OUTCOMES),
  /** the incoming payment the line is (matched, found, reported when the statement was uploaded, or matched by hand) */
  incomingId: z.uuid().nullable(),
  /** the payout transaction the line is */
  transactionId: z.uuid().nullable(),
  /** what differs, or what was done, in words */
  detail: z.string().nullable(),
  resolution: z.enum(STATEMENT_RESOLUTIONS).nullable(),
  resolvedAt: z.iso.datetime().nullable(),
  resolvedBy: z.string().nullable(),
  resolutionReason: z.string().nullable(),
  /** APPROVAL: the correction asked for, and where its request stands */
  approvalId: z.uuid().nullable(),
  approvalStatus: z.enum(APPROVAL_STATUSES).nullable(),
  /** still to resolve: an exception nobody resolved, or whose correction was rejected or expired */
  open: z.boolean(),
});
export type StatementLineItem = z.infer<typeof statementLineItem>;

export const statementDetailQuery = z
  .object({
    outcome: z.enum(STATEMENT_OUTCOMES, { error: 'Choose MATCHED, STATEMENT_ONLY, BOOKS_ONLY or MISMATCH' }).optional(),
    /** true: the exceptions still to resolve; false: the rest */
    open: z.enum(['true', 'false']).optional(),
    /** keyset position: the previous page's `next` */
    after: z
      .string()
      .regex(/^\d{1,15}$/, { error: 'Not a cursor this list gave' })
      .optional(),
    limit: pageLimit,
  })
  .strict();
export type StatementDetailQuery = z.infer<typeof statementDetailQuery>;
export const statementDetailResponse = z.object({
  data: z.object({ statement: statementItem, lines: z.array(statementLineItem) }),
  next: z.string().nullable(),
});

export const statementLineParams = z
  .object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) })
  .strict();

export const statementResolveBody = z
  .object({
    resolution: z.enum(STATEMENT_RESOLUTIONS, { error: 'Choose MATCH, ACCEPT or APPROVAL' }),
    /** MATCH of an IN line: the incoming payment it is */
    incomingId: z.uuid({ error: 'incomingId must be an incoming payment id (a UUID)' }).optional(),
    /** MATCH of an OUT line: the payout transaction it is */
    transactionId: z.uuid({ error: 'transactionId must be a payout transaction id (a UUID)' }).optional(),
    /** APPROVAL: the status the invoice behind the line should have */
    statusId: z
      .int()
      .refine((id) => statusById(id) !== undefined, { message: 'Unknown invoice status id' })
      .optional(),
    /** APPROVAL: the amount (minor units) the invoice behind the line should have */
    amount: z
      .int()
      .positive('Amount must be a positive integer in minor units')
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
    reason,
  })
  .strict()
  .superRefine((b, ctx) => {
    const correction = b.statusId !== undefined || b.amount !== undefined;
    if (b.resolution === 'APPROVAL') {
      if (b.statusId === undefined && b.amount === undefined)
        ctx.addIssue({ code: 'custom', path: ['statusId'], message: 'Ask for a status (statusId) or an amount' });
      if (b.statusId !== undefined && b.amount !== undefined)
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Ask for a status or an amount, not both' });
      if (b.incomingId || b.transactionId)
        ctx.addIssue({ code: 'custom', path: ['resolution'], message: 'A correction names no payment: choose MATCH' });
      return;
    }
    if (correction)
      ctx.addIssue({
        code: 'custom',
        path: ['resolution'],
        message: 'A status or an amount is a correction: choose APPROVAL',
      });
    if (b.resolution === 'MATCH' && !b.incomingId && !b.transactionId)
      ctx.addIssue({ code: 'custom', path: ['incomingId'], message: 'Name the incoming payment or payout it is' });
    if (b.incomingId && b.transactionId)
      ctx.addIssue({
        code: 'custom',
        path: ['transactionId'],
        message: 'Name an incoming payment or a payout, not both',
      });
    if (b.resolution === 'ACCEPT' && (b.incomingId || b.transactionId))
      ctx.addIssue({ code: 'custom', path: ['resolution'], message: 'Accepting takes no payment: choose MATCH' });
  });
export type StatementResolveBody = z.infer<typeof statementResolveBody>;
export const statementResolveResponse = dataOf(statementLineItem);

const columnName = z
  .string({ error: 'Give the column name' })
  .trim()
  .min(1, { error: 'Give the column name' })
  .max(64, { error: 'At most 64 characters' });

/** Which of the provider's columns holds each field (matched case-insensitively with the file's header). */
export const statementMapping = z
  .object({
    occurredAt: columnName,
    accountId: columnName,
    amount: columnName,
    direction: columnName,
    reference: columnName,
    /** the counterparty's column, optional in the file; a mapping without it reads no counterparty */
    counterparty: columnName.optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const seen = new Map<string, string>();
    for (const field of [...STATEMENT_FIELDS, STATEMENT_COUNTERPARTY] as const) {
      const name = m[field];
      if (name === undefined) continue;
      const key = name.toLowerCase();
      const other = seen.get(key);
      if (other) ctx.addIssue({ code: 'custom', path: [field], message: `The same column as ${other}` });
      else seen.set(key, field);
    }
  });
export type StatementMapping = z.infer<typeof statementMapping>;
export const DEFAULT_STATEMENT_MAPPING: StatementMapping = {
  occurredAt: 'occurredAt',
  accountId: 'accountId',
  amount: 'amount',
  direction: 'direction',
  reference: 'reference',
  counterparty: STATEMENT_COUNTERPARTY,
};

export const statementMappingParams = z.object({ providerId: providerIdOf('providerId') }).strict();
export const statementMappingResponse = dataOf(
  z.object({
    providerId: z.int(),
    /** the columns the provider's files are read with (the default ones when it has no mapping) */
    mapping: statementMapping,
    /** the provider has a mapping of its own */
    custom: z.boolean(),
    updatedAt: z.iso.datetime().nullable(),
    updatedBy: z.string().nullable(),
  }),
);
/** `mapping: null` goes back to the default columns. */
export const statementMappingBody = z.object({ mapping: statementMapping.nullable(), reason }).strict();
export type StatementMappingBody = z.infer<typeof statementMappingBody>;

/** The daily summary's days (UTC), both inclusive. */
export const statementSummaryQuery = z
  .object({
    providerId: providerIdOf('providerId'),
    from: z.iso.date({ error: 'from must be a day, e.g. 2026-11-01' }),
    to: z.iso.date({ error: 'to must be a day, e.g. 2026-11-30' }),
  })
  .strict()
  .superRefine((q, ctx) => {
    const days = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000;
    if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must not be before from' });
    else if (days >= STATEMENT_SUMMARY_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'At most 366 days at a time' });
  });
export type StatementSummaryQuery = z.infer<typeof statementSummaryQuery>;
export const statementSummaryFilename = (providerCode: string, q: Pick<StatementSummaryQuery, 'from' | 'to'>) =>
  `Statements-${providerCode.replace(/[^\w-]/g, '_')}-${q.from}-${q.to}.csv`;
