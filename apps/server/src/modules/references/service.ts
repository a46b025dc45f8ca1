import { and, asc, eq, inArray } from 'drizzle-orm';
import { isParamType, type ReferenceHeaderId, type ReferenceItem, type TerminalPoolItem } from '@paydesk/contracts';
import {
  currencies,
  paymentMethods,
  providers,
  references,
  terminalPoolMembers,
  terminalPools,
  terminals,
} from '../../db/schema';
import type { AppContext } from '../../lib/context';

export async function listReferences(ctx: AppContext, headerId: ReferenceHeaderId): Promise<ReferenceItem[]> {
  const rows = await ctx.db
    .select({ id: references.id, code: references.code, value: references.value, paramType: references.paramType })
    .from(references)
    .where(eq(references.headerId, headerId))
    .orderBy(asc(references.sort), asc(references.id));
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    value: r.value,
    ...(isParamType(r.paramType) ? { paramType: r.paramType } : {}),
  }));
}

export function listCurrencies(ctx: AppContext) {
  return ctx.db
    .select({ id: currencies.id, code: currencies.code, name: currencies.name, dimension: currencies.dimension })
    .from(currencies)
    .orderBy(asc(currencies.id));
}

export function listProviders(ctx: AppContext) {
  return ctx.db
    .select({ id: providers.id, code: providers.code, name: providers.name })
    .from(providers)
    .orderBy(asc(providers.id));
}

/** The merchant's terminal pools with their member terminals (only the merchant's own). */
export async function listTerminalPools(ctx: AppContext, merchantId: string): Promise<TerminalPoolItem[]> {
  const pools = await ctx.db
    .select({
      id: terminalPools.id,
      name: terminalPools.name,
      status: terminalPools.statusCode,
      type: terminalPools.typeCode,
    })
    .from(terminalPools)
    .where(eq(terminalPools.merchantId, merchantId))
    .orderBy(asc(terminalPools.id));
  if (!pools.length) return [];
  const members = await ctx.db
    .select({ poolId: terminalPoolMembers.poolId, id: terminals.id, name: terminals.name })
    .from(terminalPoolMembers)
    .innerJoin(terminals, eq(terminals.id, terminalPoolMembers.terminalId))
    .where(
      and(
        inArray(
          terminalPoolMembers.poolId,
          pools.map((p) => p.id),
        ),
        eq(terminals.merchantId, merchantId),
      ),
    )
    .orderBy(asc(terminals.createdAt), asc(terminals.name));
  return pools.map((p) => ({
    ...p,
    terminals: members.filter((m) => m.poolId === p.id).map(({ id, name }) => ({ id, name })),
  }));
}

export async function listPaymentMethods(ctx: AppContext) {
  const rows = await ctx.db
    .select({
      id: paymentMethods.id,
      code: paymentMethods.code,
      name: paymentMethods.name,
      currencyCode: currencies.code,
      dimension: currencies.dimension,
    })
    .from(paymentMethods)
    .innerJoin(currencies, eq(currencies.id, paymentMethods.currencyId))
    .orderBy(asc(paymentMethods.id));
  return rows.map(({ currencyCode, dimension, ...m }) => ({ ...m, currency: { code: currencyCode, dimension } }));
}
