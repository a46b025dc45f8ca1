import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { balanceQuery, balanceResponse, reconciliationResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { perm, platformPerm } from '../../plugins/auth';
import { reconcileLedger } from './reconcile';
import { merchantSums, type SumKind } from './service';

const SUMMARIES: Record<SumKind, string> = {
  balance: "Merchant balance from the ledger (the terminal's currency when terminalId is given)",
  deposit: 'Sum credited by DONE deposits',
  withdrawal: 'Sum paid out by DONE withdrawals',
};

export const ledgerRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/ledger/reconciliation',
      {
        // the whole platform's books: platform staff who monitor
        config: platformPerm('data.terminal.statistic'),
        schema: {
          tags: ['balance'],
          summary: 'Proves the books now: balance rows equal their entries and every book sums to zero',
          response: { 200: reconciliationResponse },
        },
      },
      async () => ({ data: { checkedAt: ctx.now().toISOString(), ...(await reconcileLedger(ctx.db)) } }),
    );

    for (const kind of ['balance', 'deposit', 'withdrawal'] as const) {
      app.get(
        `/api/v1/merchant/${kind}`,
        {
          config: perm('merchant.read.finance'),
          schema: {
            tags: ['balance'],
            summary: SUMMARIES[kind],
            querystring: balanceQuery,
            response: { 200: balanceResponse },
          },
        },
        async (req) => {
          return {
            data: await merchantSums(ctx.db, await merchantOf(req), kind, req.query.book, req.query.terminalId),
          };
        },
      );
    }
  };
