import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ledgerRouteSpecs as spec } from '@paydesk/contracts/routes/ledger';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { reconcileLedger } from './reconcile';
import { merchantSums } from './service';

export const ledgerPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // the whole platform's books: platform staff who monitor
    serve(app, spec['GET /api/v1/ledger/reconciliation'], async () => ({
      data: { checkedAt: ctx.now().toISOString(), ...(await reconcileLedger(ctx.db)) },
    }));

    for (const kind of ['balance', 'deposit', 'withdrawal'] as const) {
      serve(app, spec[`GET /api/v1/merchant/${kind}`], async (req) => {
        return {
          data: await merchantSums(ctx.db, await merchantOf(req), kind, req.query.book, req.query.terminalId),
        };
      });
    }
  };
