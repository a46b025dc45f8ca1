import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { supportRouteSpecs as spec } from '@paydesk/contracts/routes/support';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentCaller } from '../../plugins/auth';
import { decide, ticketsOfInvoice } from './service';

export const supportPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/merchant/support/:invoiceId'], async (req) => ({
      data: await ticketsOfInvoice(ctx, await merchantOf(req), req.params.invoiceId),
    }));

    for (const decision of ['approve', 'reject'] as const) {
      serve(app, spec[`POST /api/v1/merchant/support/${decision}`], async (req) => {
        const merchantId = await merchantOf(req);
        return {
          data: await decide(
            ctx,
            merchantId,
            req.body.ticketId,
            decision,
            currentCaller(req),
            req.body.peopleAccountId,
          ),
        };
      });
    }
  };
