import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ReferenceHeaderId } from '@paydesk/contracts';
import { referenceRouteSpecs as spec } from '@paydesk/contracts/routes/references';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { listCurrencies, listPaymentMethods, listProviders, listReferences, listTerminalPools } from './service';

export const referencesPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/reference'], async (req) => ({
      data: await listReferences(ctx, req.query.refHeaderId as ReferenceHeaderId),
    }));

    serve(app, spec['GET /api/v1/reference/currency'], async () => ({ data: await listCurrencies(ctx) }));

    serve(app, spec['GET /api/v1/provider'], async () => ({ data: await listProviders(ctx) }));

    serve(app, spec['GET /api/v1/payment-method'], async () => ({ data: await listPaymentMethods(ctx) }));

    serve(app, spec['GET /api/v1/terminal/pool'], async (req) => ({
      data: await listTerminalPools(ctx, await merchantOf(req)),
    }));
  };
