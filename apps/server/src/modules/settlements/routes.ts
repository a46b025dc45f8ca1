import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settlementBody, settlementCreateQuery, settlementResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import { staffActor } from '../audit/service';
import { createSettlement } from './service';

export const settlementsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/v1/settlement',
      {
        config: perm('settlement.create'),
        schema: {
          tags: ['settlement'],
          querystring: settlementCreateQuery,
          body: settlementBody,
          response: { 200: settlementResponse },
        },
      },
      async (req) => {
        const merchantId = await merchantOf(req);
        return { data: await createSettlement(ctx, merchantId, staffActor(currentUser(req), req.ip), req.body) };
      },
    );
  };
