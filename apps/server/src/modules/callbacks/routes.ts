import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callbackEnqueueResponse,
  callbackListResponse,
  invoiceIdBody,
  invoiceIdQuery,
  merchantScopeQuery,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import { enqueueManualCallback, operatorActor } from '../engine/service';
import { listCallbacksOf } from './service';

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
        return { data: await listCallbacksOf(ctx.db, await merchantOf(req), req.query.invoiceId) };
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
        const merchantId = await merchantOf(req);
        const r = await enqueueManualCallback(ctx, {
          invoiceId: req.body.invoiceId,
          merchantId,
          actor: operatorActor(currentUser(req), req.ip),
        });
        return { data: { id: r.callbackId, status: r.callbackStatus as 'PENDING' } };
      },
    );
  };
