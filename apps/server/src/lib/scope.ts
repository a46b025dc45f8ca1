import { isUuid } from '@paydesk/contracts';
import { asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { merchants } from '../db/schema';
import type { AppContext } from './context';
import { currentUser, type SessionUser } from '../plugins/auth';
import { AppError } from './errors';

/**
 * The merchant a back-office call works on (DESIGN §1): a user with merchant.rw.all may name one
 * with ?merchantId=; everyone else always gets their own merchant, whatever they send.
 */
export async function merchantScope(ctx: AppContext, user: SessionUser, requested?: string | null): Promise<string> {
  if (user.permissions.includes('merchant.rw.all')) {
    if (requested) {
      const [m] = await ctx.db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, requested));
      if (!m) throw new AppError('NOT_FOUND', 'Merchant not found');
      return m.id;
    }
    if (user.merchantId) return user.merchantId;
    const [first] = await ctx.db
      .select({ id: merchants.id })
      .from(merchants)
      .orderBy(asc(merchants.createdAt), asc(merchants.name))
      .limit(1);
    if (!first) throw new AppError('NOT_FOUND', 'No merchant exists yet');
    return first.id;
  }
  if (!user.merchantId) throw new AppError('FORBIDDEN', 'Your user is not attached to a merchant');
  return user.merchantId;
}

/** merchantScope for a request, reading ?merchantId= from its query string. */
export function requestMerchant(ctx: AppContext, req: FastifyRequest): Promise<string> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const requested = typeof q.merchantId === 'string' && q.merchantId !== '' ? q.merchantId : undefined;
  if (requested && !isUuid(requested)) {
    throw new AppError('VALIDATION_ERROR', 'merchantId must be a UUID', { merchantId: 'Invalid UUID' });
  }
  return merchantScope(ctx, currentUser(req), requested);
}
