import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountHealthRouteSpecs as spec } from '@paydesk/contracts/routes/account-health';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { serve } from '../../lib/route';
import { currentUser } from '../../plugins/auth';
import { staffActor } from '../audit/service';
import { accountHealth, pauseAccount, pauseRule, resumeAccount, setPauseRule } from './account-health';

/** Provider accounts' health and pause: platform permissions (the auth plugin refuses them to merchant users). */
export const accountHealthPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const healthOf = async (accountId: number) => {
      const [item] = await accountHealth(ctx.db, ctx.now(), accountId);
      if (!item) throw notFound('Account');
      return item;
    };
    serve(app, spec['GET /api/v1/people/account/health'], async () => ({
      data: await accountHealth(ctx.db, ctx.now()),
    }));
    serve(app, spec['POST /api/v1/people/account/:id/pause'], async (req) => {
      const user = currentUser(req);
      await pauseAccount(ctx, {
        accountId: req.params.id,
        reason: req.body.reason,
        actor: { ...staffActor(user, req.ip), userId: user.id },
      });
      return { data: await healthOf(req.params.id) };
    });
    serve(app, spec['POST /api/v1/people/account/:id/resume'], async (req) => {
      const user = currentUser(req);
      await resumeAccount(ctx, {
        accountId: req.params.id,
        reason: req.body.reason,
        actor: { ...staffActor(user, req.ip), userId: user.id },
      });
      return { data: await healthOf(req.params.id) };
    });
    serve(app, spec['GET /api/v1/people/account/pause-rule'], async () => ({
      data: await pauseRule(ctx.db, ctx.config),
    }));
    serve(app, spec['PUT /api/v1/people/account/pause-rule'], async (req) => {
      const user = currentUser(req);
      const { reason, ...rule } = req.body;
      await setPauseRule(ctx, { rule, reason, actor: { ...staffActor(user, req.ip), userId: user.id } });
      return { data: await pauseRule(ctx.db, ctx.config) };
    });
  };
