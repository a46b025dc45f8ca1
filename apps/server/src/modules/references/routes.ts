import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  currencyListResponse,
  paymentMethodListResponse,
  plainScopedQuery,
  providerListResponse,
  referenceListResponse,
  referenceQuery,
  terminalPoolListResponse,
  type ReferenceHeaderId,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { listCurrencies, listPaymentMethods, listProviders, listReferences, listTerminalPools } from './service';

export const referencesRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const session = { auth: 'session' as const };

    app.get(
      '/api/v1/reference',
      {
        config: session,
        schema: { tags: ['references'], querystring: referenceQuery, response: { 200: referenceListResponse } },
      },
      async (req) => ({ data: await listReferences(ctx, req.query.refHeaderId as ReferenceHeaderId) }),
    );

    app.get(
      '/api/v1/reference/currency',
      {
        config: session,
        schema: { tags: ['references'], querystring: plainScopedQuery, response: { 200: currencyListResponse } },
      },
      async () => ({ data: await listCurrencies(ctx) }),
    );

    app.get(
      '/api/v1/provider',
      {
        config: session,
        schema: { tags: ['references'], querystring: plainScopedQuery, response: { 200: providerListResponse } },
      },
      async () => ({ data: await listProviders(ctx) }),
    );

    app.get(
      '/api/v1/payment-method',
      {
        config: session,
        schema: { tags: ['references'], querystring: plainScopedQuery, response: { 200: paymentMethodListResponse } },
      },
      async () => ({ data: await listPaymentMethods(ctx) }),
    );

    app.get(
      '/api/v1/terminal/pool',
      {
        config: session,
        schema: { tags: ['references'], querystring: plainScopedQuery, response: { 200: terminalPoolListResponse } },
      },
      async (req) => ({ data: await listTerminalPools(ctx, await merchantOf(req)) }),
    );
  };
