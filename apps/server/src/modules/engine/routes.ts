import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { engineRouteSpecs as spec } from '@paydesk/contracts/routes/engine';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentUser } from '../../plugins/auth';
import { operatorActor, retryWithdrawal } from './service';

export const enginePlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // re-sending a payout is platform-only (invoice.retry); the engine adds the state and retry rules
    serve(app, spec['POST /api/v1/invoice/retry'], async (req) => {
      const merchantId = await merchantOf(req);
      const r = await retryWithdrawal(ctx, {
        invoiceId: req.body.invoiceId,
        merchantId,
        actor: operatorActor(currentUser(req), req.ip),
      });
      return {
        data: {
          invoiceId: r.id,
          status: r.status as 'IN_PROGRESS',
          transactionId: r.transactionId,
          attempt: r.attempt,
        },
      };
    });
  };
