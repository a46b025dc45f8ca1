import { and, eq, sql } from 'drizzle-orm';
import { invoiceErrors, providerTransactions } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { lockInvoice, resolveProviderTransactionLocked } from '../engine/service';

const SANDBOX = { kind: 'provider' } as const;

/** The sandbox provider's rule: amounts whose minor units end in 13 are declined. */
const sandboxDeclines = (amount: number) => amount % 100 === 13;

/**
 * One pass of the sandbox provider: answers due provider transactions of test invoices. Deposits
 * are confirmed once the customer pressed "Have paid" (or at least got requisites); payouts are
 * paid. Each is handled in its own transaction that takes the invoice lock with SKIP LOCKED, so
 * several processes can run this at once. Returns how many were answered.
 */
export async function tickSandbox(ctx: AppContext, opts: { limit?: number } = {}): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db.execute<{ id: string; invoice_id: string }>(sql`
    SELECT pt.id, pt.invoice_id FROM provider_transactions pt
    WHERE pt.status = 'PENDING' AND pt.sandbox_due_at IS NOT NULL AND pt.sandbox_due_at <= ${now.toISOString()}::timestamptz
    ORDER BY pt.sandbox_due_at LIMIT ${opts.limit ?? 100}`);
  let done = 0;
  for (const row of due.rows) {
    const answered = await answer(ctx, row).catch(async (err: unknown) => {
      // an answer that could not be given must not stall the other due transactions: the sandbox stops answering
      // this one (it stays open, as a real provider's silence would leave it) and says why
      if (!(err instanceof AppError)) throw err;
      await ctx.db.transaction(async (tx) => {
        await tx
          .update(providerTransactions)
          .set({ sandboxDueAt: null })
          .where(and(eq(providerTransactions.id, row.id), eq(providerTransactions.status, 'PENDING')));
        await tx.insert(invoiceErrors).values({
          invoiceId: row.invoice_id,
          description: `Sandbox answer refused: ${err.message}`,
          eventTime: ctx.now(),
        });
      });
      return false;
    });
    if (answered) done++;
  }
  return done;
}

/** Answers one due transaction in a transaction of its own, under the invoice lock (SKIP LOCKED). */
function answer(ctx: AppContext, row: { id: string; invoice_id: string }) {
  return ctx.db.transaction(async (tx) => {
    const inv = await lockInvoice(tx, { id: row.invoice_id }, { skipLocked: true });
    if (!inv) return false;
    const still = await tx.execute(
      sql`SELECT 1 FROM provider_transactions WHERE id = ${row.id} AND status = 'PENDING' FOR UPDATE SKIP LOCKED`,
    );
    if (!still.rowCount) return false;
    const result = sandboxDeclines(inv.amount) ? 'DECLINED' : 'DONE';
    await resolveProviderTransactionLocked(ctx, tx, inv, row.id, result, SANDBOX, {
      reason: result === 'DECLINED' ? 'sandbox declines amounts ending in 13' : 'sandbox confirmed',
      providerInvoiceId: inv.flowType === 'DEPOSIT' && result === 'DONE' ? `SANDBOX-${row.id.slice(0, 8)}` : undefined,
    });
    return true;
  });
}
