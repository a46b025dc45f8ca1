import { sql } from 'drizzle-orm';
import type { AppContext } from '../../lib/context';
import { applyTransition, lockInvoice } from './service';

/**
 * Cancels expired invoices: deposits still NEW or IN_PROGRESS, withdrawals still NEW.
 * A PAYED deposit (the customer says the money is sent) keeps its requisites for a grace period
 * after the form expires, so a late provider confirmation still matches it; then it is canceled.
 * One short transaction per invoice (lock with SKIP LOCKED, re-check, transition).
 */
export const PAYED_GRACE_MS = 24 * 3600_000;

export async function tickExpiry(ctx: AppContext, opts: { limit?: number } = {}): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db.execute<{ id: string }>(sql`
    SELECT id FROM invoices
    WHERE expires_at < ${now.toISOString()}::timestamptz
      AND ((flow_type = 'DEPOSIT' AND status IN ('NEW', 'IN_PROGRESS'))
        OR (flow_type = 'DEPOSIT' AND status = 'PAYED' AND expires_at < ${new Date(now.getTime() - PAYED_GRACE_MS).toISOString()}::timestamptz)
        OR (flow_type = 'WITHDRAWAL' AND status = 'NEW'))
    ORDER BY expires_at LIMIT ${opts.limit ?? 200}`);
  let n = 0;
  for (const { id } of due.rows) {
    const ok = await ctx.db.transaction(async (tx) => {
      const inv = await lockInvoice(tx, { id }, { skipLocked: true });
      if (!inv) return false;
      const deadline = inv.expiresAt.getTime() + (inv.status === 'PAYED' ? PAYED_GRACE_MS : 0);
      if (deadline >= ctx.now().getTime()) return false;
      const cancellable =
        inv.flowType === 'DEPOSIT' ? ['NEW', 'IN_PROGRESS', 'PAYED'].includes(inv.status) : inv.status === 'NEW';
      if (!cancellable) return false;
      await applyTransition(
        ctx,
        tx,
        inv,
        'CANCELED',
        { kind: 'system' },
        { reason: 'the payment form expired', code: 'EXPIRED' },
      );
      await tx.execute(
        sql`UPDATE provider_transactions SET status = 'CANCELED', status_date = ${ctx.now().toISOString()}::timestamptz WHERE invoice_id = ${id} AND status = 'PENDING'`,
      );
      return true;
    });
    if (ok) n++;
  }
  return n;
}
