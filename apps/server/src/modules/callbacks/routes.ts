import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callbackEnqueueResponse,
  callbackListResponse,
  invoiceIdBody,
  invoiceIdQuery,
  merchantScopeQuery,
} from '@paydesk/contracts';
import { eq, and } from 'drizzle-orm';
import { invoices } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { requestMerchant } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import { enqueueManualCallback, operatorActor } from '../engine/service';
import { listCallbacks } from './service';

const tags = ['callbacks'];

export const callbacksRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/merchant/callback',
      {
        config: perm('merchant.callback.read'),
        schema: {
          tags,
          summary: "An invoice's merchant callbacks and their attempts",
          querystring: invoiceIdQuery,
          response: { 200: callbackListResponse },
        },
      },
      async (req) => {
        const merchantId = await requestMerchant(ctx, req);
        const [inv] = await ctx.db
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.id, req.query.invoiceId), eq(invoices.merchantId, merchantId)));
        if (!inv) throw notFound('Invoice');
        return { data: await listCallbacks(ctx.db, inv.id) };
      },
    );
    app.post(
      '/api/v1/merchant/callback',
      {
        config: perm('merchant.callback.edit'),
        schema: {
          tags,
          summary: 'Send a manual callback now',
          querystring: merchantScopeQuery.strict(),
          body: invoiceIdBody,
          response: { 200: callbackEnqueueResponse },
        },
      },
      async (req) => {
        const merchantId = await requestMerchant(ctx, req);
        const r = await enqueueManualCallback(ctx, {
          invoiceId: req.body.invoiceId,
          merchantId,
          actor: operatorActor(currentUser(req), req.ip),
        });
        return { data: { id: r.callbackId, status: r.callbackStatus as 'PENDING' } };
      },
    );
  };
