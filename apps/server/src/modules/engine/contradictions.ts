import { incomingPayments, providerContradictions, type invoices, type providerTransactions } from '../../db/schema';
import type { Tx } from '../../db/create-db';
import { and, eq } from 'drizzle-orm';
import { accountBooking, holdInSuspense } from './suspense';

type InvoiceRow = typeof invoices.$inferSelect;
type TransactionRow = typeof providerTransactions.$inferSelect;

/**
 * A provider's answer that the books contradict, kept for staff (one per transaction): they accept the provider's
 * answer (the invoice follows it through the engine) or keep the books, with a reason (exceptions/service.ts).
 */
export async function openContradiction(
  tx: Tx,
  inv: InvoiceRow,
  txn: TransactionRow,
  providerStatus: 'DONE' | 'DECLINED',
  at: Date,
  note?: string,
) {
  await tx
    .insert(providerContradictions)
    .values({
      invoiceId: inv.id,
      merchantId: inv.merchantId,
      transactionId: txn.id,
      providerStatus,
      booksStatus: inv.status,
      note: note ?? null,
      amount: inv.amount,
      currencyId: inv.currencyId,
      createdAt: at,
    })
    .onConflictDoNothing();
}

/**
 * The provider confirmed a deposit's money after the deposit was closed (expired, cancelled, declined): the money is on
 * the account, so it goes on the books as unmatched money, offered to staff against this deposit first.
 */
export async function keepLateMoney(tx: Tx, inv: InvoiceRow, accountId: number, reference: string, at: Date) {
  const booking = await accountBooking(tx, accountId);
  const [row] = await tx
    .insert(incomingPayments)
    .values({
      providerId: booking.providerId,
      accountId,
      amount: inv.amount,
      occurredAt: at,
      reference,
      currencyId: booking.currencyId,
      book: booking.book,
      hintInvoiceId: inv.id,
      createdAt: at,
    })
    .onConflictDoNothing()
    .returning();
  if (row) return holdInSuspense(tx, row, at);
  // the provider had already reported this money (same reference): it is on the books once, as reported
  const [reported] = await tx
    .select()
    .from(incomingPayments)
    .where(and(eq(incomingPayments.providerId, booking.providerId), eq(incomingPayments.reference, reference)));
  return reported!;
}
