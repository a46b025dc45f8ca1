import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, count, eq } from 'drizzle-orm';
import { merchantListQuery, merchantListResponse, merchantResponse, merchantScopeQuery } from '@paydesk/contracts';
import { merchants } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { perm } from '../../plugins/auth';
import { requestMerchant } from '../../lib/scope';

const columns = { id: merchants.id, name: merchants.name, clientPublicKey: merchants.clientPublicKey };

export const merchantsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/merchant/me',
      {
        config: perm('merchant.read'),
        schema: { tags: ['merchant'], querystring: merchantScopeQuery.strict(), response: { 200: merchantResponse } },
      },
      async (req) => {
        const id = await requestMerchant(ctx, req);
        const [m] = await ctx.db.select(columns).from(merchants).where(eq(merchants.id, id));
        if (!m) throw notFound('Merchant');
        return { data: m };
      },
    );

    app.get(
      '/api/v1/merchant',
      {
        config: perm('merchant.rw.all'),
        schema: { tags: ['merchant'], querystring: merchantListQuery, response: { 200: merchantListResponse } },
      },
      async (req) => {
        const { page, size } = req.query;
        const [rows, [total]] = await Promise.all([
          ctx.db
            .select(columns)
            .from(merchants)
            .orderBy(asc(merchants.createdAt), asc(merchants.name))
            .limit(size)
            .offset(page * size),
          ctx.db.select({ n: count() }).from(merchants),
        ]);
        return { data: rows, total: total?.n ?? 0 };
      },
    );
  };
