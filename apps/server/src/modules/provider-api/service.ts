import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { holdsRequisites, type IncomingBody, type IncomingPayment } from '@paydesk/contracts';
import { incomingPayments, providerAccounts, providers, providerTransactions } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { holdsRequisitesSql } from '../engine/lifecycle';
import { lockInvoice, logEvent, resolveProviderTransactionLocked, applyTransition } from '../engine/service';

const PROVIDER = { kind: 'provider' } as const;

type IncomingRow = typeof incomingPayments.$inferSelect;
const toDto = (r: IncomingRow): IncomingPayment => ({
  id: r.id,
  accountId: r.accountId,
  amount: r.amount,
  occurredAt: r.occurredAt.toISOString(),
  reference: r.reference,
  matchedInvoiceId: r.matchedInvoiceId,
  status: r.matchedInvoiceId ? 'MATCHED' : 'UNMATCHED',
  createdAt: r.createdAt.toISOString(),
});

export async function providerIdByCode(ctx: AppContext, code: string): Promise<number | null> {
  const [p] = await ctx.db.select({ id: providers.id }).from(providers).where(eq(providers.code, code));
  return p?.id ?? null;
}

/**
 * Money reported as arrived on an account. Stored first (a repeated reference returns the stored
 * row: no double credit), then matched to the ONE active deposit on that account with that amount;
 * anything else stays unmatched for staff.
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
    const [row] = await tx
      .insert(incomingPayments)
      .values({
        providerId,
        accountId: body.accountId,
        amount: body.amount,
        occurredAt: new Date(body.occurredAt),
        reference: body.reference,
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
    const cands = await tx.execute<{ id: string }>(sql`
      SELECT i.id FROM invoices i
      WHERE i.account_id = ${body.accountId} AND i.amount = ${body.amount} AND ${holdsRequisitesSql('i')}
      LIMIT 2`);
    if (cands.rows.length !== 1) return toDto(row);
    const inv = await lockInvoice(tx, { id: cands.rows[0]!.id });
    // re-checked under the lock: a concurrent report may have finished it
    if (!inv || !holdsRequisites(inv) || inv.accountId !== body.accountId || inv.amount !== body.amount) {
      return toDto(row);
    }
    const [pending] = await tx
      .select()
      .from(providerTransactions)
      .where(and(eq(providerTransactions.invoiceId, inv.id), eq(providerTransactions.status, 'PENDING')))
      .orderBy(desc(providerTransactions.createDate))
      .limit(1);
    if (pending) {
      await resolveProviderTransactionLocked(ctx, tx, inv, pending.id, 'DONE', PROVIDER, {
        providerInvoiceId: body.reference,
        reason: `incoming payment ${body.reference}`,
      });
    } else {
      await applyTransition(ctx, tx, inv, 'DONE', PROVIDER, {
        patch: { providerInvoiceId: body.reference },
        reason: `incoming payment ${body.reference}`,
      });
    }
    await logEvent(
      tx,
      inv,
      now,
      PROVIDER,
      'INCOMING_MATCHED',
      `Incoming payment ${body.reference} of ${body.amount} matched`,
      {
        incomingId: row.id,
      },
    );
    const [matched] = await tx
      .update(incomingPayments)
      .set({ matchedInvoiceId: inv.id })
      .where(eq(incomingPayments.id, row.id))
      .returning();
    return toDto(matched!);
  });
}

export async function listIncoming(ctx: AppContext, providerId: number, unmatchedOnly: boolean, limit: number) {
  const rows = await ctx.db
    .select()
    .from(incomingPayments)
    .where(
      unmatchedOnly
        ? and(eq(incomingPayments.providerId, providerId), isNull(incomingPayments.matchedInvoiceId))
        : eq(incomingPayments.providerId, providerId),
    )
    .orderBy(desc(incomingPayments.createdAt))
    .limit(limit);
  return rows.map(toDto);
}
