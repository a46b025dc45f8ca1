import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settlementRouteSpecs as spec } from '@paydesk/contracts/routes/settlements';
import type { AppContext } from '../../lib/context';
import { heldOr, serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentUser } from '../../plugins/auth';
import { staffActor } from '../audit/service';
import { createSettlement } from './service';

export const settlementsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // a settlement a two-person policy covers answers 202 with its approval request
    serve(app, spec['POST /api/v1/settlement'], async (req, reply) => {
      const merchantId = await merchantOf(req);
      return heldOr(reply, await createSettlement(ctx, merchantId, staffActor(currentUser(req), req.ip), req.body));
    });
  };
