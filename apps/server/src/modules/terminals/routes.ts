import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { terminalRouteSpecs as spec } from '@paydesk/contracts/routes/terminals';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { serve } from '../../lib/route';
import { merchantScope, merchantOf } from '../../lib/scope';
import { currentCaller } from '../../plugins/auth';
import {
  createTerminal,
  deleteAttribute,
  getTerminal,
  listTerminals,
  switchToProduction,
  updateTerminal,
} from './service';

export const terminalsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const actor = currentCaller;

    serve(app, spec['GET /api/v1/terminal'], async (req) => ({
      data: await listTerminals(ctx, await merchantOf(req)),
    }));

    serve(app, spec['GET /api/v1/terminal/:id'], async (req) => ({
      data: await getTerminal(ctx, actor(req), await merchantOf(req), req.params.id),
    }));

    serve(app, spec['PATCH /api/v1/terminal/:id'], async (req) => ({
      data: await updateTerminal(ctx, actor(req), await merchantOf(req), req.params.id, req.body, 'merge'),
    }));

    serve(app, spec['PUT /api/v1/terminal/:id'], async (req) => ({
      data: await updateTerminal(ctx, actor(req), await merchantOf(req), req.params.id, req.body, 'replace'),
    }));

    serve(app, spec['DELETE /api/v1/terminal/:id'], async (req) => {
      await deleteAttribute(ctx, actor(req), await merchantOf(req), req.params.id, req.query.attributeId);
      return { data: { ok: true as const } };
    });

    serve(app, spec['POST /api/v1/merchant/:merchantId/terminal'], async (req, reply) => {
      const user = actor(req);
      // the named merchant must be the caller's scope; merchant.rw.all may name any existing one
      const merchantId = await merchantScope(ctx, user.user, req.params.merchantId);
      if (merchantId !== req.params.merchantId) throw notFound('Merchant');
      return reply.status(201).send({ data: await createTerminal(ctx, user, merchantId, req.body) });
    });

    serve(app, spec['PATCH /api/v1/people/me/testDashboard'], async (req) => ({
      data: await switchToProduction(ctx, actor(req), await merchantOf(req), req.body.terminalId),
    }));
  };
