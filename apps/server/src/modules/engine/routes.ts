import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invoiceIdBody, merchantScopeQuery, retryResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import { operatorActor, retryWithdrawal } from './service';

export const engineRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/v1/invoice/retry',
      {
        // DESIGN §1a: re-sending a payout is platform-only; the engine adds the state and retry rules
        config: perm('invoice.retry'),
        schema: {
          tags: ['invoices'],
          summary: 'Retry a withdrawal payout (new provider transaction)',
          querystring: merchantScopeQuery.strict(),
          body: invoiceIdBody,
          response: { 200: retryResponse },
        },
      },
      async (req) => {
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
      },
    );
  };
