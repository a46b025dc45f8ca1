import { isUuid } from '@paydesk/contracts';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { merchants } from '../db/schema';
import type { AppContext } from './context';
import { currentUser, type SessionUser } from '../plugins/auth';
import { AppError } from './errors';
import { knownFacts } from './known-facts';
import { speedupOn } from './speedups';

/**
 * Merchants seen to exist, per database: a merchant is never deleted (no route deletes one, and its invoices and
 * ledger refer to it), so a platform user's next request naming it needs no lookup. The `remembered-merchants`
 * speed-up (lib/speedups.ts).
 */
const knownMerchants = knownFacts();

/**
 * The merchant a back-office call works on (docs/architecture.md, "Who is who"): a user with merchant.rw.all may
 * name one with ?merchantId=; everyone else always gets their own merchant, whatever they send.
 */
export async function merchantScope(ctx: AppContext, user: SessionUser, requested?: string | null): Promise<string> {
  if (user.permissions.includes('merchant.rw.all')) {
    if (requested) {
      const id = requested.toLowerCase();
      const remembering = speedupOn(ctx.config, 'remembered-merchants');
      if (remembering && knownMerchants.has(ctx.dbh, id)) return id;
      const [m] = await ctx.db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, id));
      if (!m) throw new AppError('NOT_FOUND', 'Merchant not found');
      if (remembering) knownMerchants.add(ctx.dbh, m.id);
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

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant this request works on, resolved at most once (see registerMerchantScope). */
    resolveMerchant?: () => Promise<string>;
  }
}

/**
 * Tenant scope by construction: on every signed-in staff request, the merchant it works on is
 * resolved once, on first use, by merchantScope (a platform user may name one with ?merchantId=,
 * everyone else gets their own). Handlers read it with merchantOf(req) and hand it to repository
 * functions that put it inside the WHERE (lib/tenant.ts and the services).
 */
export function registerMerchantScope(app: FastifyInstance, ctx: AppContext) {
  // after authenticate (plugins/auth.ts), which has set req.user or answered 401
  const scope = async (req: FastifyRequest) => {
    let resolved: Promise<string> | undefined;
    req.resolveMerchant = () => {
      const q = (req.query ?? {}) as { merchantId?: unknown };
      const requested = typeof q.merchantId === 'string' && q.merchantId !== '' ? q.merchantId : undefined;
      if (requested && !isUuid(requested)) {
        return Promise.reject(
          new AppError('VALIDATION_ERROR', 'merchantId must be a UUID', { merchantId: 'Invalid UUID' }),
        );
      }
      resolved ??= merchantScope(ctx, currentUser(req), requested);
      return resolved;
    };
  };
  // on the routes that need a session only (as plugins/auth.ts authenticates them)
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (auth && auth !== 'public') route.preHandler = [scope, ...[route.preHandler ?? []].flat()];
  });
}

/** The request's merchant (see registerMerchantScope). */
export function merchantOf(req: FastifyRequest): Promise<string> {
  if (!req.resolveMerchant) throw new AppError('UNAUTHORIZED', 'Sign in to continue');
  return req.resolveMerchant();
}
