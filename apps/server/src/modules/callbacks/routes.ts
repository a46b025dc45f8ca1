import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callbackRouteSpecs as spec } from '@paydesk/contracts/routes/callbacks';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentUser } from '../../plugins/auth';
import { enqueueManualCallback, operatorActor } from '../engine/service';
import { deliveryScope, endpointHealth, listDeliveries } from './deliveries';
import { replayCallbacks } from './replay';
import { listCallbacksOf } from './service';

export const callbacksPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/merchant/callback'], async (req) => {
      return { data: await listCallbacksOf(ctx.db, await merchantOf(req), req.query.invoiceId) };
    });
    serve(app, spec['POST /api/v1/merchant/callback'], async (req) => {
      const merchantId = await merchantOf(req);
      const r = await enqueueManualCallback(ctx, {
        invoiceId: req.body.invoiceId,
        merchantId,
        actor: operatorActor(currentUser(req), req.ip),
      });
      return { data: { id: r.callbackId, status: r.callbackStatus as 'PENDING' } };
    });

    // across invoices: the caller's merchant, or for platform staff every merchant or the one named (`merchant`)
    serve(app, spec['GET /api/v1/callbacks'], async (req) => {
      const scope = await deliveryScope(ctx.db, currentUser(req), req.query.merchant);
      return listDeliveries(ctx.db, scope, req.query);
    });
    serve(app, spec['GET /api/v1/callbacks/health'], async (req) => {
      const scope = await deliveryScope(ctx.db, currentUser(req), req.query.merchant);
      return { data: await endpointHealth(ctx.db, scope, ctx.now()) };
    });
    serve(app, spec['POST /api/v1/callbacks/replay'], async (req, reply) => {
      const r = await replayCallbacks(ctx, currentUser(req), req.ip, req.body);
      if (r.preview) return { data: { count: r.count, perSecond: r.perSecond } };
      return reply.code(202).send({ data: { count: r.count, replayId: r.replayId, perSecond: r.perSecond } });
    });
  };
