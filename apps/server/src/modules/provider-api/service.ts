import { and, desc, eq, sql } from 'drizzle-orm';
import { holdsRequisites, type IncomingBody, type IncomingPayment } from '@paydesk/contracts';
import { incomingPayments, providerAccounts, providers, providerTransactions } from '../../db/schema';
import type { Tx } from '../../db/create-db';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { holdsRequisitesSql } from '../engine/lifecycle';
import {
  accountBooking,
  applyTransition,
  holdInSuspense,
  lockInvoice,
  logEvent,
  resolveProviderTransactionLocked,
} from '../engine/service';

const PROVIDER = { kind: 'provider' } as const;

type IncomingRow = typeof incomingPayments.$inferSelect;
const toDto = (r: IncomingRow): IncomingPayment => ({
  id: r.id,
  accountId: r.accountId,
  amount: r.amount,
  occurredAt: r.occurredAt.toISOString(),
  reference: r.reference,
  payerName: r.payerName,
  matchedInvoiceId: r.matchedInvoiceId,
  status: r.status as IncomingPayment['status'],
  createdAt: r.createdAt.toISOString(),
});

export async function providerIdByCode(ctx: AppContext, code: string): Promise<number | null> {
  const [p] = await ctx.db.select({ id: providers.id }).from(providers).where(eq(providers.code, code));
  return p?.id ?? null;
}

/** How long after staff set a deposit DONE its money may still be reported as that deposit's confirmation. */
const CONFIRMATION_WINDOW_MS = 3 * 24 * 3_600_000;

/**
 * Money reported as arrived on an account. Stored first (a repeated reference returns the stored row: no double
 * credit), then, in this order:
 * 1. matched to the ONE active deposit on that account with that amount, which becomes DONE;
 * 2. else it confirms the ONE deposit of that account and amount that staff set DONE before its money was reported
 *    (no second credit: the deposit already counted it on the account);
 * 3. else it is unmatched money: on the books at once in suspense (engine/suspense.ts), for staff to match or return.
 */
export async function reportIncoming(
  ctx: AppContext,
  providerId: number,
  body: IncomingBody,
): Promise<IncomingPayment> {
  const [acc] = await ctx.db
    .select({ id: providerAccounts.id })
    .from(providerAccounts)
    .where(and(eq(providerAccounts.id, body.accountId), eq(providerAccounts.providerId, providerId)));
  if (!acc) throw notFound('Account');
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const booking = await accountBooking(tx, body.accountId);
    const [row] = await tx
      .insert(incomingPayments)
      .values({
        providerId,
        accountId: body.accountId,
        amount: body.amount,
        occurredAt: new Date(body.occurredAt),
        reference: body.reference,
        payerName: body.payerName ?? null,
        currencyId: booking.currencyId,
        book: booking.book,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      const [existing] = await tx
        .select()
        .from(incomingPayments)
        .where(and(eq(incomingPayments.providerId, providerId), eq(incomingPayments.reference, body.reference)));
      return toDto(existing!);
    }
    const matched = (await matchActiveDeposit(ctx, tx, row)) ?? (await confirmStaffDone(ctx, tx, row));
    if (!matched) return toDto(await holdInSuspense(tx, row, now));
    const [linked] = await tx
      .update(incomingPayments)
      .set({ status: 'MATCHED', matchedInvoiceId: matched.id, resolvedAt: now })
      .where(eq(incomingPayments.id, row.id))
      .returning();
    return toDto(linked!);
  });
}

/** The one active deposit on the account with this amount, finished by the money (null: none, or several). */
async function matchActiveDeposit(ctx: AppContext, tx: Tx, row: IncomingRow) {
  const cands = await tx.execute<{ id: string }>(sql`
    SELECT i.id FROM invoices i
    WHERE i.account_id = ${row.accountId} AND i.amount = ${row.amount} AND ${holdsRequisitesSql('i')}
    LIMIT 2`);
  if (cands.rows.length !== 1) return null;
  const inv = await lockInvoice(tx, { id: cands.rows[0]!.id });
  // re-checked under the lock: a concurrent report may have finished it
  if (!inv || !holdsRequisites(inv) || inv.accountId !== row.accountId || inv.amount !== row.amount) return null;
  const pending = await pendingDepositTransaction(tx, inv.id);
  const reason = `incoming payment ${row.reference}`;
  if (pending) {
    await resolveProviderTransactionLocked(ctx, tx, inv, pending.id, 'DONE', PROVIDER, {
      providerInvoiceId: row.reference,
      reason,
    });
  } else {
    await applyTransition(ctx, tx, inv, 'DONE', PROVIDER, { patch: { providerInvoiceId: row.reference }, reason });
  }
  await logEvent(tx, inv, ctx.now(), PROVIDER, 'INCOMING_MATCHED', `Incoming payment ${row.reference} matched`, {
    incomingId: row.id,
  });
  return inv;
}

/**
 * The deposit staff set DONE (an operator, or an approved ticket) on this account for this amount, whose money was
 * never reported until now: this report is its confirmation. Null when there is none, or more than one.
 */
async function confirmStaffDone(ctx: AppContext, tx: Tx, row: IncomingRow) {
  const since = new Date(ctx.now().getTime() - CONFIRMATION_WINDOW_MS).toISOString();
  const cands = await tx.execute<{ id: string }>(sql`
    SELECT i.id FROM invoices i
    WHERE i.account_id = ${row.accountId} AND i.status = 'DONE' AND i.flow_type = 'DEPOSIT'
      AND i.is_test = ${row.book === 'test'} AND i.status_date >= ${since}::timestamptz AND i.amount = ${row.amount}
      AND NOT i.funded_from_suspense
      AND NOT EXISTS (SELECT 1 FROM incoming_payments ip WHERE ip.matched_invoice_id = i.id)
      AND NOT EXISTS (SELECT 1 FROM provider_transactions pt WHERE pt.invoice_id = i.id AND pt.status = 'DONE')
    LIMIT 2`);
  if (cands.rows.length !== 1) return null;
  const inv = await lockInvoice(tx, { id: cands.rows[0]!.id });
  if (!inv || inv.status !== 'DONE' || inv.fundedFromSuspense) return null;
  const pending = await pendingDepositTransaction(tx, inv.id);
  if (pending) {
    await resolveProviderTransactionLocked(ctx, tx, inv, pending.id, 'DONE', PROVIDER, {
      providerInvoiceId: row.reference,
    });
  }
  await logEvent(
    tx,
    inv,
    ctx.now(),
    PROVIDER,
    'INCOMING_CONFIRMS',
    `Incoming payment ${row.reference} confirms the money of this deposit, set DONE before it was reported`,
    { incomingId: row.id },
  );
  return inv;
}

async function pendingDepositTransaction(tx: Tx, invoiceId: string) {
  const [pending] = await tx
    .select()
    .from(providerTransactions)
    .where(and(eq(providerTransactions.invoiceId, invoiceId), eq(providerTransactions.status, 'PENDING')))
    .orderBy(desc(providerTransactions.createDate))
    .limit(1);
  return pending;
}

export async function listIncoming(ctx: AppContext, providerId: number, unmatchedOnly: boolean, limit: number) {
  const rows = await ctx.db
    .select()
    .from(incomingPayments)
    .where(
      unmatchedOnly
        ? and(eq(incomingPayments.providerId, providerId), eq(incomingPayments.status, 'UNMATCHED'))
        : eq(incomingPayments.providerId, providerId),
    )
    .orderBy(desc(incomingPayments.createdAt))
    .limit(limit);
  return rows.map(toDto);
}
