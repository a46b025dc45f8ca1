import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/create-db';
import { currencies, invoices, terminals } from '../db/schema';
import { notFound } from './errors';

/**
 * Tenant-scoped lookups (docs/architecture.md, "Who is who"): the merchant is a required argument and sits inside
 * the WHERE, so another merchant's row is simply "not found" (404), never a row to re-check by hand. Routes get the
 * merchant from the request's scope (lib/scope.ts merchantOf), services pass it down.
 */
export async function ownedInvoice(db: DbOrTx, merchantId: string, invoiceId: string) {
  const [row] = await db
    .select({ id: invoices.id, flowType: invoices.flowType, status: invoices.status, isTest: invoices.isTest })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.merchantId, merchantId)));
  if (!row) throw notFound('Invoice');
  return row;
}

export async function ownedTerminal(db: DbOrTx, merchantId: string, terminalId: string) {
  const [row] = await db
    .select({
      id: terminals.id,
      name: terminals.name,
      merchantId: terminals.merchantId,
      isTest: terminals.isTest,
      currencyId: terminals.currencyId,
      code: currencies.code,
      dimension: currencies.dimension,
    })
    .from(terminals)
    .innerJoin(currencies, eq(currencies.id, terminals.currencyId))
    .where(and(eq(terminals.id, terminalId), eq(terminals.merchantId, merchantId)));
  if (!row) throw notFound('Terminal');
  return row;
}
