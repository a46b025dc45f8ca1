import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  feeFor,
  formatMoney,
  type ApprovalHeld,
  type ContradictionItem,
  type ContradictionListQuery,
  type ContradictionResolution,
  type IncomingCandidate,
  type IncomingItem,
  type IncomingQueueQuery,
  type InvoiceStatus,
} from '@paydesk/contracts';
import type { DbOrTx, Tx } from '../../db/create-db';
import { incomingPayments, providerContradictions } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { badRequest, invalidState, notFound } from '../../lib/errors';
import { recordAudit } from '../audit/service';
import { postIncomingReturn, type Book } from '../ledger/service';
import { effectDelta, invoiceEffect } from '../ledger/postings';
import {
  applyTransition,
  holdForApproval,
  lockInvoice,
  logEvent,
  terminalFeeBps,
  writeInvoice,
  type ApprovalGrant,
  type StaffActor,
} from '../engine/service';
import { moneyFormatter } from '../engine/guards';
import { incomingFilterSql } from './queues';
import { payerFits } from './payer-name';

// the desk's queue rules, for the alerts that watch the same queues (notifications/service.ts)
export { stuckSource } from './queues';

/*
 * The operations desk's actions (docs/operations.md). Each one runs through the engine's write path (engine/service.ts
 * writeInvoice) and its guards, and writes its audit record in the same transaction.
 */

/** `<ISO time>_<id>` of a row, the keyset position the next page starts after. */
const cursorOf = (at: Date, id: string | number) => `${at.toISOString()}_${id}`;

/** A page of a list read newest first with one row more than the page (`limit + 1`): is there a next page, and where. */
function newestFirstPage<R, T extends { createdAt: string; id: string | number }>(
  rows: R[],
  limit: number,
  map: (r: R) => T,
) {
  const data = rows.slice(0, limit).map(map);
  const last = data.at(-1);
  return { data, next: rows.length > limit && last ? cursorOf(new Date(last.createdAt), last.id) : null };
}
function parseCursor(cursor: string | undefined) {
  if (!cursor) return null;
  const cut = cursor.indexOf('_');
  return { at: cursor.slice(0, cut), id: cursor.slice(cut + 1) };
}

const ITEM_SELECT = sql`
  SELECT ip.id, ip.status, ip.provider_id, p.name AS provider_name, ip.account_id,
    trim(coalesce(a.bank_name, '') || ' ' || coalesce(a.owner_name, '')) AS account_name,
    ip.amount::text AS amount, c.code AS currency, ip.book, ip.reference, ip.payer_name, ip.occurred_at, ip.created_at,
    ip.in_suspense, ip.matched_invoice_id, ip.hint_invoice_id, ip.resolved_at, u.username AS resolved_by,
    ip.resolution_reason, ip.return_reference
  FROM incoming_payments ip
  JOIN providers p ON p.id = ip.provider_id
  JOIN provider_accounts a ON a.id = ip.account_id
  JOIN currencies c ON c.id = ip.currency_id
  LEFT JOIN users u ON u.id = ip.resolved_by`;

type ItemRow = {
  id: string;
  status: IncomingItem['status'];
  provider_id: number;
  provider_name: string;
  account_id: number;
  account_name: string;
  amount: string;
  currency: string;
  book: Book;
  reference: string;
  payer_name: string | null;
  occurred_at: string | Date;
  created_at: string | Date;
  in_suspense: boolean;
  matched_invoice_id: string | null;
  hint_invoice_id: string | null;
  resolved_at: string | Date | null;
  resolved_by: string | null;
  resolution_reason: string | null;
  return_reference: string | null;
};

const iso = (v: string | Date) => new Date(v).toISOString();
const isoOrNull = (v: string | Date | null) => (v === null ? null : iso(v));

const toItem = (r: ItemRow): IncomingItem => ({
  id: r.id,
  status: r.status,
  providerId: Number(r.provider_id),
  providerName: r.provider_name,
  accountId: Number(r.account_id),
  accountName: r.account_name,
  amount: Number(r.amount),
  currency: r.currency,
  book: r.book,
  reference: r.reference,
  payerName: r.payer_name,
  occurredAt: iso(r.occurred_at),
  createdAt: iso(r.created_at),
  inSuspense: r.in_suspense,
  matchedInvoiceId: r.matched_invoice_id,
  hintInvoiceId: r.hint_invoice_id,
  resolvedAt: isoOrNull(r.resolved_at),
  resolvedBy: r.resolved_by,
  resolutionReason: r.resolution_reason,
  returnReference: r.return_reference,
});

/** Incoming money, newest first, one keyset page (the filters are the queue's URL). */
export async function listIncoming(db: DbOrTx, q: IncomingQueueQuery) {
  const where: SQL[] = [];
  if (q.status) where.push(sql`ip.status = ${q.status}`);
  where.push(...incomingFilterSql(q));
  const after = parseCursor(q.after);
  if (after) where.push(sql`(ip.created_at, ip.id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  const res = await db.execute<ItemRow>(sql`${ITEM_SELECT}
    ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
    ORDER BY ip.created_at DESC, ip.id DESC LIMIT ${q.limit + 1}`);
  return newestFirstPage(res.rows, q.limit, toItem);
}

async function itemById(db: DbOrTx, id: string) {
  const res = await db.execute<ItemRow>(sql`${ITEM_SELECT} WHERE ip.id = ${id}`);
  if (!res.rows[0]) throw notFound('Incoming payment');
  return toItem(res.rows[0]);
}

/** How far back a deposit may have been created to be offered for money that arrived. */
const CANDIDATE_WINDOW = '3 days';

/**
 * The deposits an incoming payment may belong to, best first: the deposit a provider named (+100), on the account the
 * money arrived on (+40), of the same amount (+30; within 10 %: +10), of the customer the bank named as payer (+30;
 * by initials: +20, payer-name.ts), created within the hour before (+20) or the day (+10). Only deposits that could
 * still take money: not paid from suspense, not confirmed by other incoming money.
 */
export async function incomingDetail(db: DbOrTx, id: string) {
  const item = await itemById(db, id);
  const occurred = item.occurredAt;
  const res = await db.execute<{
    id: string;
    merchant_id: string;
    merchant_name: string;
    merchant_invoice_id: string;
    status: InvoiceStatus;
    amount: string;
    account_id: number | null;
    first_name: string | null;
    last_name: string | null;
    created_at: string | Date;
    distance: number;
    score: number;
    hinted: boolean;
    same_account: boolean;
    same_amount: boolean;
    near_amount: boolean;
    within_hour: boolean;
  }>(sql`
    WITH c AS (
      SELECT i.*, i.id = ${item.hintInvoiceId} AS hinted,
        i.account_id IS NOT DISTINCT FROM ${item.accountId} AS same_account,
        i.amount = ${item.amount} AS same_amount,
        abs(i.amount - ${item.amount}) * 10 <= ${item.amount} AS near_amount,
        abs(extract(epoch FROM (${occurred}::timestamptz - i.created_at))) < 3600 AS within_hour,
        abs(extract(epoch FROM (${occurred}::timestamptz - i.created_at))) < 86400 AS within_day
      FROM invoices i
      WHERE i.flow_type = 'DEPOSIT' AND i.currency_id = (SELECT currency_id FROM incoming_payments WHERE id = ${id})
        AND i.is_test = ${item.book === 'test'}
        AND (i.id = ${item.hintInvoiceId} OR (i.account_id = ${item.accountId}
          AND i.created_at BETWEEN ${occurred}::timestamptz - ${CANDIDATE_WINDOW}::interval
                               AND ${occurred}::timestamptz + interval '1 hour'))
        AND NOT i.funded_from_suspense
        AND NOT EXISTS (SELECT 1 FROM incoming_payments x WHERE x.matched_invoice_id = i.id))
    SELECT c.id, c.merchant_id, m.name AS merchant_name, c.merchant_invoice_id, c.status, c.amount::text AS amount,
      c.account_id, cu.first_name, cu.last_name, c.created_at,
      abs(extract(epoch FROM (${occurred}::timestamptz - c.created_at)))::float8 AS distance,
      (CASE WHEN c.hinted THEN 100 ELSE 0 END + CASE WHEN c.same_account THEN 40 ELSE 0 END
        + CASE WHEN c.same_amount THEN 30 WHEN c.near_amount THEN 10 ELSE 0 END
        + CASE WHEN c.within_hour THEN 20 WHEN c.within_day THEN 10 ELSE 0 END)::int AS score,
      coalesce(c.hinted, false) AS hinted, c.same_account, c.same_amount, c.near_amount, c.within_hour
    FROM c JOIN merchants m ON m.id = c.merchant_id LEFT JOIN customers cu ON cu.id = c.customer_id
    ORDER BY score DESC, distance, c.id
    LIMIT 50`);
  const ranked = res.rows.map((r) => {
    const fit = payerFits(item.payerName, r.first_name ?? '', r.last_name ?? '');
    return { ...r, fit, score: Number(r.score) + (fit === 'same' ? 30 : fit === 'fits' ? 20 : 0) };
  });
  ranked.sort((a, b) => b.score - a.score || Number(a.distance) - Number(b.distance) || a.id.localeCompare(b.id));
  const candidates: IncomingCandidate[] = ranked.slice(0, 10).map((r) => ({
    invoiceId: r.id,
    merchantId: r.merchant_id,
    merchantName: r.merchant_name,
    merchantInvoiceId: r.merchant_invoice_id,
    status: r.status,
    amount: Number(r.amount),
    accountId: r.account_id === null ? null : Number(r.account_id),
    customer: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
    createdAt: iso(r.created_at),
    score: Number(r.score),
    reasons: [
      ...(r.hinted ? ['the provider confirmed this deposit late'] : []),
      ...(r.same_account ? ['same account'] : []),
      ...(r.same_amount ? ['same amount'] : r.near_amount ? ['amount within 10 %'] : []),
      ...(r.fit === 'same'
        ? ['the payer is this customer']
        : r.fit === 'fits'
          ? ["the payer's name fits this customer"]
          : []),
      ...(r.within_hour ? ['created within the hour before'] : []),
    ],
  }));
  return { item, candidates };
}

/**
 * Staff match unmatched money to a deposit (docs/operations.md, "matching"): through the engine, the deposit takes the
 * money from suspense. A deposit still open or closed without its money (expired, cancelled, declined) becomes DONE,
 * on the account the money arrived on and for the amount that arrived; a deposit staff set DONE before its money was
 * reported takes it as its confirmation (its credit stays; the account is counted once).
 */
function matchIncoming(
  ctx: AppContext,
  args: { incomingId: string; invoiceId: string; reason: string; actor: StaffActor },
) {
  return ctx.db.transaction(async (tx) => {
    const item = await itemById(tx, args.incomingId);
    if (item.status !== 'UNMATCHED') throw invalidState(`This incoming payment is already ${item.status}`);
    const inv = await lockInvoice(tx, { id: args.invoiceId });
    if (!inv) throw badRequest('No such deposit', { invoiceId: 'Choose a deposit' });
    const field = (message: string) => badRequest(message, { invoiceId: message });
    if (inv.flowType !== 'DEPOSIT') throw field('Only a deposit can take incoming money');
    const money = await moneyFormatter(tx, inv.currencyId);
    const [cur] = (await tx.execute<{ code: string }>(sql`SELECT code FROM currencies WHERE id = ${inv.currencyId}`))
      .rows;
    if (cur?.code !== item.currency) throw field(`The money is in ${item.currency}; the deposit is in ${cur?.code}`);
    if (inv.isTest !== (item.book === 'test')) {
      throw field(inv.isTest ? 'A test deposit takes only sandbox money' : 'A live deposit cannot take sandbox money');
    }
    const linked = await tx
      .select({ id: incomingPayments.id })
      .from(incomingPayments)
      .where(eq(incomingPayments.matchedInvoiceId, inv.id))
      .limit(1);
    if (inv.fundedFromSuspense || linked.length) throw invalidState('This deposit already has its money');
    const match = { incomingId: item.id, reason: args.reason };
    const reason = `incoming payment ${item.reference}: ${args.reason}`;
    let updated;
    if (inv.status === 'DONE') {
      if (inv.accountId !== item.accountId) {
        throw invalidState(
          `This deposit was set DONE against account ${inv.accountId}; the money arrived on account ${item.accountId}`,
        );
      }
      if (inv.amount !== item.amount) {
        throw invalidState(
          `This deposit was set DONE for ${money(inv.amount)}; ${money(item.amount)} arrived. Correct its amount first`,
        );
      }
      updated = await writeInvoice(ctx, tx, inv, {
        actor: args.actor,
        match,
        event: {
          code: 'INCOMING_CONFIRMS',
          description: `Incoming payment ${item.reference} confirms this deposit's money (matched by staff): ${args.reason}`,
          data: { incomingId: item.id, reason: args.reason },
        },
        ledgerKind: 'incoming_matched',
      });
    } else {
      const fee = item.amount === inv.amount ? inv.fee : feeFor(item.amount, await terminalFeeBps(tx, inv.terminalId));
      updated = await applyTransition(ctx, tx, inv, 'DONE', args.actor, {
        force: true,
        reason:
          item.amount === inv.amount
            ? reason
            : `${reason} (amount corrected from ${money(inv.amount)} to ${money(item.amount)}: that is what arrived)`,
        patch: { accountId: item.accountId, amount: item.amount, fee, providerInvoiceId: item.reference },
        match,
      });
    }
    await recordAudit(
      tx,
      args.actor.audit,
      {
        action: 'incoming.matched',
        merchantId: inv.merchantId,
        targetType: 'incoming',
        targetId: item.id,
        before: { incoming: item.status, invoiceId: inv.id, invoice: inv.status, amount: inv.amount },
        after: { incoming: 'MATCHED', invoice: updated.status, amount: updated.amount },
        reason: args.reason,
      },
      ctx.now(),
    );
    return itemById(tx, item.id);
  });
}

/** Unmatched money sent back to the payer: out of suspense and off the provider account, with the bank's reference. */
function returnIncoming(
  ctx: AppContext,
  args: { incomingId: string; reference: string; reason: string; actor: StaffActor },
) {
  return ctx.db.transaction(async (tx) => {
    const [item] = await tx
      .select()
      .from(incomingPayments)
      .where(eq(incomingPayments.id, args.incomingId))
      .for('update');
    if (!item) throw notFound('Incoming payment');
    if (item.status !== 'UNMATCHED') throw invalidState(`This incoming payment is already ${item.status}`);
    if (!item.inSuspense) throw invalidState('This incoming payment was never held in suspense');
    const now = ctx.now();
    await postIncomingReturn(tx, item, now);
    await tx
      .update(incomingPayments)
      .set({
        status: 'RETURNED',
        returnReference: args.reference,
        resolvedAt: now,
        resolvedBy: args.actor.userId,
        resolutionReason: args.reason,
      })
      .where(eq(incomingPayments.id, item.id));
    await recordAudit(
      tx,
      args.actor.audit,
      {
        action: 'incoming.returned',
        targetType: 'incoming',
        targetId: item.id,
        before: { incoming: item.status, amount: item.amount, accountId: item.accountId },
        after: { incoming: 'RETURNED', reference: args.reference },
        reason: args.reason,
      },
      now,
    );
    return itemById(tx, item.id);
  });
}

const CONTRADICTION_SELECT = sql`
  SELECT pc.id, pc.status, pc.invoice_id, pc.merchant_id, m.name AS merchant_name, i.merchant_invoice_id,
    i.flow_type, pc.transaction_id, pc.provider_status, pc.books_status, i.status AS invoice_status,
    pc.amount::text AS amount, i.fee::text AS fee, c.code AS currency, pc.note, pc.created_at, pc.resolution,
    u.username AS resolved_by, pc.resolved_at, pc.reason
  FROM provider_contradictions pc
  JOIN invoices i ON i.id = pc.invoice_id
  JOIN merchants m ON m.id = pc.merchant_id
  JOIN currencies c ON c.id = pc.currency_id
  LEFT JOIN users u ON u.id = pc.resolved_by`;

type ContradictionRow = {
  id: number;
  status: ContradictionItem['status'];
  invoice_id: string;
  merchant_id: string;
  merchant_name: string;
  merchant_invoice_id: string;
  flow_type: ContradictionItem['flowType'];
  transaction_id: string;
  provider_status: ContradictionItem['providerStatus'];
  books_status: InvoiceStatus;
  invoice_status: InvoiceStatus;
  amount: string;
  fee: string;
  currency: string;
  note: string | null;
  created_at: string | Date;
  resolution: ContradictionResolution | null;
  resolved_by: string | null;
  resolved_at: string | Date | null;
  reason: string | null;
};

function toContradiction(r: ContradictionRow): ContradictionItem {
  const invoice = { flowType: r.flow_type, amount: Number(r.amount), fee: Number(r.fee) };
  const effect = effectDelta(
    invoiceEffect({ ...invoice, status: r.invoice_status }),
    invoiceEffect({ ...invoice, status: r.provider_status }),
  );
  return {
    id: Number(r.id),
    status: r.status,
    invoiceId: r.invoice_id,
    merchantId: r.merchant_id,
    merchantName: r.merchant_name,
    merchantInvoiceId: r.merchant_invoice_id,
    flowType: r.flow_type,
    transactionId: r.transaction_id,
    providerStatus: r.provider_status,
    booksStatus: r.books_status,
    invoiceStatus: r.invoice_status,
    amount: Number(r.amount),
    currency: r.currency,
    effect: r.status === 'OPEN' ? effect : [],
    note: r.note,
    createdAt: iso(r.created_at),
    resolution: r.resolution,
    resolvedBy: r.resolved_by,
    resolvedAt: isoOrNull(r.resolved_at),
    reason: r.reason,
  };
}

export async function listContradictions(db: DbOrTx, q: ContradictionListQuery) {
  const where: SQL[] = [];
  if (q.status) where.push(sql`pc.status = ${q.status}`);
  const after = parseCursor(q.after);
  if (after) {
    const id = Number(after.id);
    if (!Number.isSafeInteger(id)) throw badRequest('Not a cursor this list gave', { after: 'Not a cursor' });
    where.push(sql`(pc.created_at, pc.id) < (${after.at}::timestamptz, ${id})`);
  }
  const res = await db.execute<ContradictionRow>(sql`${CONTRADICTION_SELECT}
    ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
    ORDER BY pc.created_at DESC, pc.id DESC LIMIT ${q.limit + 1}`);
  return newestFirstPage(res.rows, q.limit, toContradiction);
}

async function contradictionById(db: DbOrTx, id: number) {
  const res = await db.execute<ContradictionRow>(sql`${CONTRADICTION_SELECT} WHERE pc.id = ${id}`);
  if (!res.rows[0]) throw notFound('Contradiction');
  return toContradiction(res.rows[0]);
}

/**
 * Staff resolve a contradiction: accept the provider's answer (the invoice moves to it through the engine, with its
 * ledger effect and the merchant's callback; the engine's guards still apply, e.g. a merchant's balance that no longer
 * covers a reversed deposit refuses it) or keep the books as they are. Either way with a reason, audited.
 */
export function resolveContradiction(
  ctx: AppContext,
  args: { id: number; resolution: ContradictionResolution; reason: string; actor: StaffActor },
) {
  return ctx.db.transaction(async (tx: Tx) => {
    const seen = await contradictionById(tx, args.id);
    const inv = await lockInvoice(tx, { id: seen.invoiceId });
    if (!inv) throw notFound('Contradiction');
    const [row] = await tx
      .select()
      .from(providerContradictions)
      .where(eq(providerContradictions.id, args.id))
      .for('update');
    if (row!.status !== 'OPEN') throw invalidState('This contradiction is already resolved');
    const now = ctx.now();
    const target = row!.providerStatus as 'DONE' | 'DECLINED';
    if (args.resolution === 'ACCEPT_PROVIDER' && inv.status !== target) {
      await applyTransition(ctx, tx, inv, target, args.actor, {
        force: true,
        reason: `the provider answered ${target}: ${args.reason}`,
      });
    } else {
      await logEvent(
        tx,
        inv,
        now,
        args.actor,
        'CONTRADICTION_RESOLVED',
        args.resolution === 'KEEP_BOOKS'
          ? `Staff keep the books (${inv.status}) against the provider's ${target}: ${args.reason}`
          : `The provider's ${target} accepted; the invoice already was ${inv.status}: ${args.reason}`,
        { contradictionId: args.id },
      );
    }
    await tx
      .update(providerContradictions)
      .set({
        status: 'RESOLVED',
        resolution: args.resolution,
        resolvedBy: args.actor.userId,
        resolvedAt: now,
        reason: args.reason,
      })
      .where(and(eq(providerContradictions.id, args.id), eq(providerContradictions.status, 'OPEN')));
    await recordAudit(
      tx,
      args.actor.audit,
      {
        action: 'contradiction.resolved',
        merchantId: inv.merchantId,
        targetType: 'contradiction',
        targetId: args.id,
        before: { invoiceId: inv.id, invoice: inv.status, provider: target },
        after: { resolution: args.resolution },
        reason: args.reason,
      },
      now,
    );
    return contradictionById(tx, args.id);
  });
}

/**
 * Matching or returning unmatched money, held for a second person when a policy covers it (its amount against the
 * threshold of its currency): the request, or what the action did. `grant` is the approval carrying it out.
 */
export async function resolveIncoming(
  ctx: AppContext,
  args:
    | { kind: 'match'; incomingId: string; invoiceId: string; reason: string; actor: StaffActor }
    | { kind: 'return'; incomingId: string; reference: string; reason: string; actor: StaffActor },
  grant?: ApprovalGrant,
): Promise<IncomingItem | { held: ApprovalHeld }> {
  const item = await itemById(ctx.db, args.incomingId);
  if (item.status === 'UNMATCHED') {
    const money = formatMoney(item.amount, await dimensionOf(ctx.db, item.currency), 'en', item.currency);
    const { actor, ...payload } = args;
    const held = await holdForApproval(
      ctx,
      { ...actor.audit, userId: actor.userId },
      {
        action: 'incoming.resolve',
        merchantId: null,
        targetType: 'incoming',
        targetId: item.id,
        summary:
          args.kind === 'match'
            ? `Match ${money} (reference ${item.reference}) to deposit ${args.invoiceId}`
            : `Return ${money} (reference ${item.reference}) to the payer, bank reference ${args.reference}`,
        payload,
        before: { status: item.status },
        after: args.kind === 'match' ? { status: 'MATCHED', invoiceId: args.invoiceId } : { status: 'RETURNED' },
        reason: args.reason,
        amount: item.amount,
        currency: item.currency,
      },
      grant,
    );
    if (held) return { held };
  }
  return args.kind === 'match' ? matchIncoming(ctx, args) : returnIncoming(ctx, args);
}

async function dimensionOf(db: DbOrTx, code: string): Promise<number> {
  const res = await db.execute<{ dimension: number }>(sql`SELECT dimension FROM currencies WHERE code = ${code}`);
  return Number(res.rows[0]!.dimension);
}
