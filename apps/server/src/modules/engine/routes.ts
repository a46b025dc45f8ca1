import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invoiceIdBody, merchantScopeQuery, retryResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { requestMerchant } from '../../lib/scope';
import { currentUser } from '../../plugins/auth';
import { retryWithdrawal } from './service';

export const engineRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/v1/invoice/retry',
      {
        // SPEC §6 names no permission for retry: any signed-in user of the merchant, subject to canRetry
        config: { auth: 'session' },
        schema: {
          tags: ['invoices'],
          summary: 'Retry a withdrawal payout (new provider transaction)',
          querystring: merchantScopeQuery.strict(),
          body: invoiceIdBody,
          response: { 200: retryResponse },
        },
      },
      async (req) => {
        const merchantId = await requestMerchant(ctx, req);
        const r = await retryWithdrawal(ctx, {
          invoiceId: req.body.invoiceId,
          merchantId,
          actor: { kind: 'operator', userId: currentUser(req).id },
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
