import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settingRouteSpecs as spec } from '@paydesk/contracts/routes/settings';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentUser } from '../../plugins/auth';
import { staffActor } from '../audit/service';
import { getSetting, setSetting } from './service';

/** Settings of the caller's merchant (platform staff: the merchant picked with ?merchantId=). */
export const settingsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/settings/:setting'], async (req) => ({
      data: { value: await getSetting(ctx.db, await merchantOf(req), req.params.setting) },
    }));
    serve(app, spec['POST /api/v1/settings/:setting'], async (req) => {
      const merchantId = await merchantOf(req);
      await setSetting(ctx, staffActor(currentUser(req), req.ip), merchantId, req.params.setting, req.body.value);
      return { data: { value: req.body.value } };
    });
  };
