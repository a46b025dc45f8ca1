import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/create-db';
import { accountLimits, incomingPayments, type invoices } from '../../db/schema';
import { invalidState } from '../../lib/errors';
import { bookOf, postUnmatchedArrival } from '../ledger/service';
import { flagOverLimit } from '../routing/service';

type InvoiceRow = typeof invoices.$inferSelect;
type IncomingRow = typeof incomingPayments.$inferSelect;

/** An explicit match by staff: this unmatched item pays this deposit. */
export type SuspenseMatch = { incomingId: string; reason: string };

/** What a change does to the deposit's funding from suspense: columns to write and an event to log. */
export type FundingChange = {
  patch: Partial<InvoiceRow>;
  event?: { code: string; description: string; data?: Record<string, unknown> };
};

/**
 * The suspense half of the invoice write path (service.ts writeInvoice), after the invariants and before anything is
 * written. Money that arrived unmatched is already on the provider account and in suspense, so a deposit paid by it
 * takes its amount from suspense (ledger/postings.ts invoiceEffect) and the account is counted once:
 * - an explicit match names the item; it must still be unmatched (else 409), and it becomes MATCHED to the deposit;
 * - a deposit staff set DONE (an operator, or an approved ticket) takes the oldest unmatched item of its account,
 *   book and amount that arrived after the deposit was created: that is its money, reported before anyone knew;
 * - a deposit paid from suspense that leaves DONE gives its item back (UNMATCHED again), as its ledger effect gives
 *   the money back to suspense; its amount cannot change, since the amount is the money that arrived.
 * Items are locked after the invoice and its accounts' limit rows, in every path (lock order: guards.ts).
 */
export async function settleSuspenseFunding(
  tx: Tx,
  before: InvoiceRow,
  next: InvoiceRow,
  by: { staff: boolean; userId: string | null },
  at: Date,
  match?: SuspenseMatch,
): Promise<FundingChange | null> {
  if (before.fundedFromSuspense) return releaseOrKeep(tx, before, next);
  if (match) return takeItem(tx, next, await lockItem(tx, match.incomingId), at, by.userId, match.reason);
  const paidNow = next.status === 'DONE';
  const paidBefore = before.status === 'DONE';
  if (!by.staff || next.flowType !== 'DEPOSIT' || !paidNow || paidBefore) return null;
  if (next.accountId === null) return null;
  const [item] = await tx
    .select()
    .from(incomingPayments)
    .where(
      and(
        eq(incomingPayments.status, 'UNMATCHED'),
        eq(incomingPayments.inSuspense, true),
        eq(incomingPayments.accountId, next.accountId),
        eq(incomingPayments.amount, next.amount),
        eq(incomingPayments.book, bookOf(next.isTest)),
        gte(incomingPayments.createdAt, before.createdAt),
      ),
    )
    .orderBy(asc(incomingPayments.occurredAt), asc(incomingPayments.id))
    .limit(1)
    // an item someone else is resolving right now is theirs: never wait on it (no lock cycle with a match)
    .for('update', { skipLocked: true });
  if (!item) return null;
  return takeItem(tx, next, item, at, by.userId, 'the deposit was set DONE by staff');
}

async function lockItem(tx: Tx, id: string): Promise<IncomingRow> {
  const [item] = await tx.select().from(incomingPayments).where(eq(incomingPayments.id, id)).for('update');
  if (!item) throw invalidState('The incoming payment does not exist');
  return item;
}

async function takeItem(
  tx: Tx,
  next: InvoiceRow,
  item: IncomingRow,
  at: Date,
  userId: string | null,
  reason: string,
): Promise<FundingChange> {
  if (item.status !== 'UNMATCHED') throw invalidState(`This incoming payment is already ${item.status}`);
  if (!item.inSuspense) throw invalidState('This incoming payment was never held in suspense');
  await tx
    .update(incomingPayments)
    .set({ status: 'MATCHED', matchedInvoiceId: next.id, resolvedAt: at, resolvedBy: userId, resolutionReason: reason })
    .where(eq(incomingPayments.id, item.id));
  return {
    patch: { fundedFromSuspense: true },
    event: {
      code: 'INCOMING_MATCHED',
      description: `Paid by incoming payment ${item.reference} that had arrived unmatched: ${reason}`,
      data: { incomingId: item.id, reference: item.reference },
    },
  };
}

async function releaseOrKeep(tx: Tx, before: InvoiceRow, next: InvoiceRow): Promise<FundingChange | null> {
  if (next.status === 'DONE') {
    if (next.amount !== before.amount) {
      throw invalidState(
        'This deposit was paid by money that arrived unmatched; its amount is what arrived and cannot change',
      );
    }
    return null;
  }
  const released = await tx
    .update(incomingPayments)
    .set({ status: 'UNMATCHED', matchedInvoiceId: null, resolvedAt: null, resolvedBy: null, resolutionReason: null })
    .where(
      and(
        eq(incomingPayments.matchedInvoiceId, before.id),
        eq(incomingPayments.inSuspense, true),
        eq(incomingPayments.status, 'MATCHED'),
      ),
    )
    .returning({ id: incomingPayments.id, reference: incomingPayments.reference });
  return {
    patch: { fundedFromSuspense: false },
    event: {
      code: 'INCOMING_RELEASED',
      description: `The money of incoming payment ${released.map((r) => r.reference).join(', ')} is back in suspense: the deposit is no longer DONE`,
      data: { incomingIds: released.map((r) => r.id) },
    },
  };
}

/** Where an account's money is booked: its currency, and the test book for the sandbox's accounts. */
export async function accountBooking(tx: Tx, accountId: number) {
  const res = await tx.execute<{ provider_id: number; currency_id: number; is_sandbox: boolean }>(sql`
    SELECT a.provider_id, m.currency_id, p.is_sandbox FROM provider_accounts a
    JOIN payment_methods m ON m.id = a.payment_method_id JOIN providers p ON p.id = a.provider_id
    WHERE a.id = ${accountId}`);
  const row = res.rows[0];
  if (!row) throw invalidState(`Account ${accountId} does not exist`);
  return { providerId: Number(row.provider_id), currencyId: Number(row.currency_id), book: bookOf(row.is_sandbox) };
}

/**
 * Money that arrived and matched no invoice, put on the books at once: the provider account is debited (its balance
 * and limit count it from now on) and suspense credited, in the account's book (ledger/postings.ts). Money that
 * really arrived is never refused: should it take the account past its limit, the account is flagged over limit, as
 * a deposit's DONE flags it (service.ts), and routing gives it no requisites until the limit is raised.
 */
export async function holdInSuspense(tx: Tx, item: IncomingRow, at: Date) {
  // the lock order of every write (guards.ts): the account's limit row before the balance rows the posting updates
  await tx
    .select({ accountId: accountLimits.accountId })
    .from(accountLimits)
    .where(eq(accountLimits.accountId, item.accountId))
    .for('update');
  await tx.update(incomingPayments).set({ inSuspense: true }).where(eq(incomingPayments.id, item.id));
  await postUnmatchedArrival(tx, item, at);
  await flagOverLimit(tx, item.accountId, item.book === 'test', at);
  return { ...item, inSuspense: true };
}
