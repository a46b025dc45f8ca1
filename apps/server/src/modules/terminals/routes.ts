import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import { merchantScopeQuery, terminalListResponse } from '@paydesk/contracts';
import { currencies, terminals } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { requestMerchant } from '../../lib/scope';

export const terminalsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/terminal',
      {
        config: { auth: 'session' },
        schema: { tags: ['terminals'], querystring: merchantScopeQuery.strict(), response: { 200: terminalListResponse } },
      },
      async (req) => {
        const merchantId = await requestMerchant(ctx, req);
        const rows = await ctx.db
          .select({
            id: terminals.id,
            name: terminals.name,
            flowType: terminals.flowType,
            currencyCode: currencies.code,
            isTest: terminals.isTest,
            enabled: terminals.enabled,
          })
          .from(terminals)
          .innerJoin(currencies, eq(currencies.id, terminals.currencyId))
          .where(eq(terminals.merchantId, merchantId))
          .orderBy(asc(terminals.createdAt), asc(terminals.name));
        return {
          data: rows.map((r) => ({
            id: r.id,
            name: r.name,
            paymentFlow: r.flowType as 'DEPOSIT' | 'WITHDRAWAL',
            currency: { code: r.currencyCode },
            isTest: r.isTest,
            enabled: r.enabled,
          })),
        };
      },
    );
  };
