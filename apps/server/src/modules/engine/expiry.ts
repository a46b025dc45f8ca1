import { sql } from 'drizzle-orm';
import { expiryDeadline } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { expiredSql } from './lifecycle';
import { applyTransition, lockInvoice } from './service';

/**
 * Cancels invoices whose form expired, by the contracts' expiry rule (EXPIRY_GRACE_MS: which
 * statuses of each flow expire, and a PAYED deposit's grace). One short transaction per invoice:
 * lock with SKIP LOCKED, re-check the same rule under the lock, cancel through the engine.
 */
export async function tickExpiry(ctx: AppContext, opts: { limit?: number } = {}): Promise<number> {
  const due = await ctx.db.execute<{ id: string }>(sql`
    SELECT i.id FROM invoices i WHERE ${expiredSql('i', ctx.now())}
    ORDER BY i.expires_at LIMIT ${opts.limit ?? 200}`);
  let n = 0;
  for (const { id } of due.rows) {
    const ok = await cancelExpired(ctx, id).catch((err: unknown) => {
      // an engine rule refused (e.g. a payout still with the provider): it waits, the others expire
      if (!(err instanceof AppError)) throw err;
      return false;
    });
    if (ok) n++;
  }
  return n;
}

function cancelExpired(ctx: AppContext, id: string) {
  return ctx.db.transaction(async (tx) => {
    const inv = await lockInvoice(tx, { id }, { skipLocked: true });
    if (!inv) return false;
    const deadline = expiryDeadline(inv);
    if (deadline === null || deadline >= ctx.now().getTime()) return false;
    await applyTransition(
      ctx,
      tx,
      inv,
      'CANCELED',
      { kind: 'system' },
      { reason: 'the payment form expired', code: 'EXPIRED' },
    );
    return true;
  });
}
