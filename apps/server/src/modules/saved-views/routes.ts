import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { savedViewRouteSpecs as spec } from '@paydesk/contracts/routes/saved-views';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentCaller, currentUser } from '../../plugins/auth';
import { createView, deleteView, listViews, updateView } from './service';

export const savedViewsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/saved-views'], async (req) => ({
      data: await listViews(ctx, await merchantOf(req), currentUser(req)),
    }));

    serve(app, spec['POST /api/v1/saved-views'], async (req, reply) => {
      const view = await createView(ctx, await merchantOf(req), currentCaller(req), req.body);
      return reply.code(201).send({ data: view });
    });

    serve(app, spec['PATCH /api/v1/saved-views/:id'], async (req) => ({
      data: await updateView(ctx, await merchantOf(req), currentCaller(req), req.params.id, req.body),
    }));

    serve(app, spec['DELETE /api/v1/saved-views/:id'], async (req) => {
      await deleteView(ctx, await merchantOf(req), currentCaller(req), req.params.id);
      return { data: { ok: true as const } };
    });
  };
