import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  merchantScopeQuery,
  supportInvoiceParams,
  supportTicketResponse,
  supportTicketsResponse,
  ticketDecisionBody,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import { decide, ticketsOfInvoice } from './service';

const tags = ['support'];

export const supportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/merchant/support/:invoiceId',
      {
        config: { auth: 'session' },
        schema: {
          tags,
          params: supportInvoiceParams,
          querystring: merchantScopeQuery.strict(),
          response: { 200: supportTicketsResponse },
        },
      },
      async (req) => ({ data: await ticketsOfInvoice(ctx, await merchantOf(req), req.params.invoiceId) }),
    );

    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/api/v1/merchant/support/${decision}`,
        {
          config: perm('ticket.decision'),
          schema: {
            tags,
            querystring: merchantScopeQuery.strict(),
            body: ticketDecisionBody,
            response: { 200: supportTicketResponse },
          },
        },
        async (req) => {
          const merchantId = await merchantOf(req);
          return {
            data: await decide(
              ctx,
              merchantId,
              req.body.ticketId,
              decision,
              { user: currentUser(req), ip: req.ip },
              req.body.peopleAccountId,
            ),
          };
        },
      );
    }
  };
