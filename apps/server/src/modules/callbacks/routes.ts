import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callbacksRoutes as spec } from '@paydesk/contracts/routes/callbacks';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentUser } from '../../plugins/auth';
import { enqueueManualCallback, operatorActor } from '../engine/service';
import { listCallbacksOf } from './service';

export const callbacksRoutes =
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
  };
