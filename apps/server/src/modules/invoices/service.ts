import type { Readable } from 'node:stream';
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  INVOICE_TOTAL_CAP,
  PLATFORM_STAFF_LABEL,
  canChangeAmount,
  encodeInvoiceCursor,
  canChangeStatus,
  canRequestRetry,
  hasPermission,
  invoiceRuleInput,
  refusalMessage,
  statusById,
  type ChangeInvoiceAmountBody,
  type ChangeInvoiceStatusBody,
  type EventUser,
  type Invoice,
  type InvoiceDetails,
  type InvoiceFilter,
  type InvoiceListQuery,
  type InvoiceListResponse,
  type RoutingStep,
} from '@paydesk/contracts';
import { eventLog, invoiceErrors, invoices, invoiceStatusEvents, providerTransactions, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { readStatistics } from '../../lib/replica-read';
import { copyOut } from '../../lib/copy-out';
import { ownedInvoice } from '../../lib/tenant';
import { forbidden, invalidState, notFound } from '../../lib/errors';
import type { ApprovalHeld } from '@paydesk/contracts';
import { recordReveal, staffActor } from '../audit/service';
import { changeAmount, changeStatus, holdForApproval, operatorActor, type ApprovalGrant } from '../engine/service';
import { toProcessing } from '../engine/lifecycle';
import type { Caller, SessionUser } from '../../plugins/auth';
import {
  countSql,
  csvBatchCopySql,
  csvBatchEndSql,
  csvCopySql,
  type CsvKey,
  exactCountSql,
  keysetSql,
  toQuery,
  detailSql,
  type DetailRow,
  listSql,
  searchPageSql,
  SEARCH_SORT_MAX,
  statusRef,
  requisiteDigits,
  toInvoice,
  type FilterOptions,
  type ItemRow,
  type Visibility,
} from './queries';

const visibility = (perms: readonly string[]): Visibility => ({
  canReadProvider: hasPermission(perms, 'invoice.provider.read'),
  canReadCredentials: hasPermission(perms, 'invoice.credentials.read'),
});

/**
 * The requisite (masked: toInvoice), the account's holder and bank only with invoice.credentials.read, the provider
 * only with invoice.provider.read: a field the caller may not read is not sent at all, not even masked.
 */
function withVisibleRequisites(inv: Invoice, v: Visibility): Invoice {
  const c = inv.credentials;
  const credentials = c && {
    bankName: v.canReadCredentials ? c.bankName : null,
    owner: v.canReadCredentials ? c.owner : null,
    provider: v.canReadProvider ? c.provider : null,
  };
  const hasAny = credentials && Object.values(credentials).some((x) => x !== null);
  return {
    ...inv,
    account: v.canReadCredentials ? inv.account : null,
    credentials: hasAny ? credentials : null,
  };
}

/** A row of searchPageSql: the item's columns are null on the one row of a page without invoices. */
type SearchRow = Omit<ItemRow, 'id'> & { id: string | null; matches: number };

/** How a filter is applied for this caller; a search that reads as a whole card or phone number also looks it up. */
function filterOptions(ctx: AppContext, merchantId: string, f: InvoiceFilter, v: Visibility): FilterOptions {
  const digits = requisiteDigits(f.search);
  return { merchantId, canReadProvider: v.canReadProvider, requisiteHash: digits && ctx.vault.hash(digits) };
}

const present = (r: ItemRow, v: Visibility) => withVisibleRequisites(toInvoice(r, v), v);

const cursorOf = (r: ItemRow) => encodeInvoiceCursor({ createdAt: r.position, id: r.id });

export async function listInvoices(
  ctx: AppContext,
  merchantId: string,
  q: InvoiceListQuery,
  perms: readonly string[],
): Promise<InvoiceListResponse> {
  const v = visibility(perms);
  const opts = filterOptions(ctx, merchantId, q, v);
  let rows: ItemRow[];
  let n: number;
  const byPosition = Boolean(q.after || q.before);
  if (q.search) {
    // the count and the page in one query (searchPageSql), by number or by position; a search naming more than
    // SEARCH_SORT_MAX invoices is paged as without a search
    const at = byPosition ? { after: q.after, before: q.before } : { page: q.page };
    const found = (await ctx.db.execute<SearchRow>(searchPageSql(q, opts, at, q.size))).rows;
    n = found[0]!.matches;
    rows =
      n <= SEARCH_SORT_MAX
        ? found.filter((r): r is SearchRow & ItemRow => r.id !== null)
        : (await ctx.db.execute<ItemRow>(byPosition ? keysetSql(q, opts, q, q.size) : listSql(q, opts, q.page, q.size)))
            .rows;
  } else {
    // the page (by number, or by position: keyset, the same cost at any depth) and the capped count side by side
    // (two connections on PostgreSQL; queued on PGlite's one)
    const [listed, counted] = await Promise.all([
      ctx.db.execute<ItemRow>(byPosition ? keysetSql(q, opts, q, q.size) : listSql(q, opts, q.page, q.size)),
      ctx.db.execute<{ n: number }>(countSql(q, opts)),
    ]);
    rows = listed.rows;
    n = counted.rows[0]!.n;
  }
  let newer: boolean;
  let older: boolean;
  if (byPosition) {
    // keysetSql reads one row more than the page: whether there is more in its direction
    const more = rows.length > q.size;
    rows = rows.slice(0, q.size);
    if (q.before) rows.reverse();
    newer = q.after ? true : more;
    older = q.after ? more : true;
  } else {
    newer = q.page > 0;
    // past the cap the count does not know the end: a full page may have more after it
    older = n > INVOICE_TOTAL_CAP ? rows.length === q.size : (q.page + 1) * q.size < n;
  }
  const isCapped = n > INVOICE_TOTAL_CAP;
  return {
    data: rows.map((r) => present(r, v)),
    total: isCapped ? INVOICE_TOTAL_CAP : n,
    totalIsCapped: isCapped,
    nextCursor: older && rows.length ? cursorOf(rows.at(-1)!) : null,
    prevCursor: newer && rows.length ? cursorOf(rows[0]!) : null,
  };
}

/** The exact number of matches, past the list's cap ("Count exactly"). */
export async function countInvoicesExactly(
  ctx: AppContext,
  merchantId: string,
  f: InvoiceFilter,
  perms: readonly string[],
): Promise<number> {
  const opts = filterOptions(ctx, merchantId, f, visibility(perms));
  // asked for on purpose and possibly long: on a streaming replica when one is close enough behind
  const [row] = await readStatistics(ctx, (rows) => rows<{ n: number }>(exactCountSql(f, opts)));
  return Number(row!.n);
}

/**
 * One invoice for its details page, with what its actions depend on (`processing`): sent to a caller who may read the
 * invoice's provider transactions, or retry or correct it (who would read the same in the engine's refusal anyway).
 */
export async function getInvoice(
  ctx: AppContext,
  merchantId: string,
  invoiceId: string,
  perms: readonly string[],
): Promise<InvoiceDetails> {
  const row = (await ctx.db.execute<DetailRow>(detailSql(invoiceId, merchantId))).rows[0];
  if (!row) throw notFound('Invoice');
  const invoice = present(row, visibility(perms));
  const rule = invoiceRuleInput(invoice);
  const told =
    hasPermission(perms, 'invoice.transaction.read') || canRequestRetry(rule, perms) || canChangeStatus(rule, perms);
  return { ...invoice, processing: told ? toProcessing(row) : null };
}

/**
 * The full requisite of one of the merchant's invoices, shown on purpose (invoice.credentials.read, checked by the
 * route): the audit record of who saw it is written in the same transaction, and past the hourly limit nothing is
 * shown (audit/service.ts recordReveal).
 */
export async function revealInvoiceCredentials(ctx: AppContext, merchantId: string, invoiceId: string, caller: Caller) {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ value: invoices.credentialValue, masked: invoices.credentialMasked })
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), eq(invoices.merchantId, merchantId)));
    if (!row) throw notFound('Invoice');
    if (row.value === null) throw invalidState('This invoice has no requisites yet');
    await recordReveal(
      tx,
      { ...staffActor(caller.user, caller.ip), userId: caller.user.id },
      { type: 'invoice', id: invoiceId, merchantId },
      ctx.now(),
    );
    return { invoiceId, value: await ctx.vault.open(tx, 'invoice.credential', row.value), masked: row.masked ?? '' };
  });
}

/**
 * Streams Invoices.csv with COPY (lib/copy-out.ts): memory stays flat whatever the row count. On PostgreSQL one
 * statement (one snapshot); on the embedded database keyset batches newest first, each its own snapshot: invoices
 * created after the export began sort before its first batch and are not in the file, and an invoice whose status
 * changes during the export shows the state it had when its batch was read.
 */
export function exportInvoicesCsv(
  ctx: AppContext,
  merchantId: string,
  f: InvoiceFilter,
  perms: readonly string[],
): Promise<Readable> {
  const opts = filterOptions(ctx, merchantId, f, visibility(perms));
  return copyOut<CsvKey>(
    ctx,
    async (client) => {
      // Up to the list's cap the file is sorted like the list; bigger exports stream unsorted.
      const count = toQuery(countSql(f, opts));
      const n = (await client.query<{ n: number }>(count.sql, count.params)).rows[0]!.n;
      return csvCopySql(f, opts, n <= INVOICE_TOTAL_CAP);
    },
    {
      async end(client, after, n) {
        const q = toQuery(csvBatchEndSql(f, opts, after, n));
        return (await client.query<CsvKey>(q.sql, q.params)).rows[0] ?? null;
      },
      copy: (after, until, header) => csvBatchCopySql(f, opts, after, until, header),
    },
  );
}

/** Operator status change: allowed by canChangeStatus (test invoice or invoice.status.change); the engine writes it. */
/** What a covered invoice action holds for its approval request: the invoice's state in words and figures. */
async function invoiceFacts(ctx: AppContext, invoiceId: string) {
  const res = await ctx.db.execute<{ mid: string; status: string; amount: string; currency: string }>(sql`
    SELECT i.merchant_invoice_id AS mid, i.status, i.amount::text AS amount, c.code AS currency
    FROM invoices i JOIN currencies c ON c.id = i.currency_id WHERE i.id = ${invoiceId}`);
  const r = res.rows[0]!;
  return { mid: r.mid, status: r.status, amount: Number(r.amount), currency: r.currency };
}

/**
 * The request an approval carries out must find the invoice as it was asked about: otherwise it is refused with what
 * changed (and the engine's own rules are checked again when it acts).
 */
function assertUnmoved(grant: ApprovalGrant | undefined, before: unknown, now: { status: string; amount: number }) {
  if (!grant) return;
  const b = before as { status?: string; amount?: number } | null;
  if (b?.status !== undefined && b.status !== now.status)
    throw invalidState(`The invoice is now ${now.status}; it was ${b.status} when the change was asked for`);
  if (b?.amount !== undefined && b.amount !== now.amount)
    throw invalidState(`The invoice's amount is now ${now.amount}; it was ${b.amount} when the change was asked for`);
}

/** How a correction is asked for: `grant`, the approval carrying it out; `askApproval`, held whatever the policies. */
type CorrectionMode = { grant?: ApprovalGrant & { before: unknown }; askApproval?: boolean };

/**
 * An operator's status correction. On a live invoice, a move into or out of DONE is held for a second person when a
 * policy covers it (answer: the request); `grant` is the approval carrying it out.
 */
export async function changeInvoiceStatus(
  ctx: AppContext,
  merchantId: string,
  body: ChangeInvoiceStatusBody,
  caller: Caller,
  { grant, askApproval }: CorrectionMode = {},
): Promise<InvoiceDetails | { held: ApprovalHeld }> {
  const inv = await ownedInvoice(ctx.db, merchantId, body.invoiceId);
  if (!canChangeStatus(inv, caller.user.permissions)) throw forbidden(refusalMessage(['invoice.status.change']));
  const to = statusById(body.statusId)!.code;
  const facts = await invoiceFacts(ctx, inv.id);
  assertUnmoved(grant, grant?.before, facts);
  if (askApproval || (!inv.isTest && (to === 'DONE' || inv.status === 'DONE'))) {
    const held = await holdForApproval(
      ctx,
      { ...staffActor(caller.user, caller.ip), userId: caller.user.id },
      {
        action: 'invoice.status.change',
        merchantId,
        targetType: 'invoice',
        targetId: inv.id,
        summary: `Set invoice ${facts.mid} ${to} (was ${inv.status})`,
        payload: { merchantId, body },
        before: { status: inv.status, amount: facts.amount },
        after: { status: to, ...(body.peopleAccountId ? { accountId: body.peopleAccountId } : {}) },
        reason: body.reason,
        amount: facts.amount,
        currency: facts.currency,
        always: askApproval,
      },
      grant,
    );
    if (held) return { held };
  }
  await changeStatus(ctx, {
    invoiceId: inv.id,
    merchantId,
    to,
    actor: operatorActor(caller.user, caller.ip),
    reason: body.reason,
    accountId: body.peopleAccountId,
  });
  return getInvoice(ctx, merchantId, inv.id, caller.user.permissions);
}

/** An operator's amount correction; held for a second person when a policy covers it (the larger amount counts). */
export async function changeInvoiceAmount(
  ctx: AppContext,
  merchantId: string,
  body: ChangeInvoiceAmountBody,
  caller: Caller,
  { grant, askApproval }: CorrectionMode = {},
): Promise<InvoiceDetails | { held: ApprovalHeld }> {
  const inv = await ownedInvoice(ctx.db, merchantId, body.invoiceId);
  if (!canChangeAmount(inv, caller.user.permissions)) throw forbidden(refusalMessage(['invoice.amount.change']));
  const facts = await invoiceFacts(ctx, inv.id);
  assertUnmoved(grant, grant?.before, facts);
  if (askApproval || !inv.isTest) {
    const held = await holdForApproval(
      ctx,
      { ...staffActor(caller.user, caller.ip), userId: caller.user.id },
      {
        action: 'invoice.amount.change',
        merchantId,
        targetType: 'invoice',
        targetId: inv.id,
        summary: `Change the amount of invoice ${facts.mid} from ${facts.amount} to ${body.amount} (minor units)`,
        payload: { merchantId, body },
        before: { status: inv.status, amount: facts.amount },
        after: { amount: body.amount },
        reason: body.reason,
        amount: Math.max(facts.amount, body.amount),
        currency: facts.currency,
        always: askApproval,
      },
      grant,
    );
    if (held) return { held };
  }
  await changeAmount(ctx, {
    invoiceId: inv.id,
    merchantId,
    amount: body.amount,
    actor: operatorActor(caller.user, caller.ip),
    reason: body.reason,
  });
  return getInvoice(ctx, merchantId, inv.id, caller.user.permissions);
}

/**
 * Who acted, as the reader may know them. A merchant's staff are not told which platform employee acted on their
 * invoice (as in the audit trail): neither the name, the username nor the id, only that it was platform staff.
 */
function actingUser(
  reader: SessionUser,
  u: {
    id: string | null;
    username: string | null;
    firstName: string | null;
    lastName: string | null;
    merchantId: string | null;
  },
): { userId: string | null; user: EventUser | null } {
  if (u.id === null) return { userId: null, user: null };
  // an id no user row has any more: nothing to name
  if (u.username === null) return { userId: u.id, user: null };
  if (reader.scope === 'merchant' && u.merchantId !== reader.merchantId) {
    return u.merchantId === null
      ? { userId: null, user: { name: PLATFORM_STAFF_LABEL, username: null } }
      : { userId: null, user: null };
  }
  const name = `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username;
  return { userId: u.id, user: { name, username: u.username } };
}

const userColumns = {
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  merchantId: users.merchantId,
};

export async function statusHistory(ctx: AppContext, merchantId: string, invoiceId: string, reader: SessionUser) {
  await ownedInvoice(ctx.db, merchantId, invoiceId);
  const rows = await ctx.db
    .select({
      status: invoiceStatusEvents.status,
      statusDate: invoiceStatusEvents.statusDate,
      userId: invoiceStatusEvents.userId,
      ...userColumns,
    })
    .from(invoiceStatusEvents)
    .leftJoin(users, eq(users.id, invoiceStatusEvents.userId))
    .where(eq(invoiceStatusEvents.invoiceId, invoiceId))
    .orderBy(asc(invoiceStatusEvents.statusDate), asc(invoiceStatusEvents.id));
  return rows.map((r) => ({
    status: statusRef(r.status),
    statusDate: r.statusDate.toISOString(),
    userId: actingUser(reader, { ...r, id: r.userId }).userId,
  }));
}

export async function invoiceErrorList(ctx: AppContext, merchantId: string, invoiceId: string) {
  await ownedInvoice(ctx.db, merchantId, invoiceId);
  const rows = await ctx.db
    .select()
    .from(invoiceErrors)
    .where(eq(invoiceErrors.invoiceId, invoiceId))
    .orderBy(asc(invoiceErrors.eventTime), asc(invoiceErrors.id));
  return rows.map((r) => ({ description: r.description, eventTime: r.eventTime.toISOString() }));
}

/** The invoice's event log, each entry with the name of the user who acted (as the reader may know them). */
export async function invoiceEventList(ctx: AppContext, merchantId: string, invoiceId: string, reader: SessionUser) {
  await ownedInvoice(ctx.db, merchantId, invoiceId);
  const rows = await ctx.db
    .select({
      id: eventLog.id,
      code: eventLog.code,
      description: eventLog.description,
      eventTime: eventLog.eventTime,
      userId: eventLog.userId,
      data: eventLog.data,
      ...userColumns,
    })
    .from(eventLog)
    .leftJoin(users, eq(users.id, eventLog.userId))
    .where(and(eq(eventLog.invoiceId, invoiceId), eq(eventLog.merchantId, merchantId)))
    .orderBy(asc(eventLog.eventTime), asc(eventLog.id));
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    description: r.description,
    eventTime: r.eventTime.toISOString(),
    ...actingUser(reader, { ...r, id: r.userId }),
    // how routing chose the account (provider accounts are the platform's: platform staff only)
    ...(reader.scope === 'platform' && routingOf(r.data) ? { routing: routingOf(r.data) } : {}),
  }));
}

/** The routing record an event's data carries (payment-form/service.ts assignRequisites), if any. */
function routingOf(data: unknown): RoutingStep[] | undefined {
  const routing = (data as { routing?: unknown } | null)?.routing;
  return Array.isArray(routing) ? (routing as RoutingStep[]) : undefined;
}

export async function invoiceTransactionList(ctx: AppContext, merchantId: string, invoiceId: string) {
  await ownedInvoice(ctx.db, merchantId, invoiceId);
  const rows = await ctx.db
    .select()
    .from(providerTransactions)
    .where(eq(providerTransactions.invoiceId, invoiceId))
    .orderBy(asc(providerTransactions.createDate), asc(providerTransactions.attempt));
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    createDate: r.createDate.toISOString(),
    statusDate: r.statusDate.toISOString(),
    type: r.type,
    attempt: r.attempt,
  }));
}
