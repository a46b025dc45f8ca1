import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { merchantScopeQuery, settingBody, settingParams, settingResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import { staffActor } from '../audit/service';
import { getSetting, setSetting } from './service';

/** Settings of the caller's merchant (platform staff: the merchant picked with ?merchantId=). */
export const settingsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const querystring = merchantScopeQuery.strict();
    app.get(
      '/api/v1/settings/:setting',
      {
        config: perm('settings.read'),
        schema: { tags: ['settings'], params: settingParams, querystring, response: { 200: settingResponse } },
      },
      async (req) => ({
        data: { value: await getSetting(ctx.db, await merchantOf(req), req.params.setting) },
      }),
    );
    app.post(
      '/api/v1/settings/:setting',
      {
        config: perm('settings.edit'),
        schema: {
          tags: ['settings'],
          params: settingParams,
          querystring,
          body: settingBody,
          response: { 200: settingResponse },
        },
      },
      async (req) => {
        const merchantId = await merchantOf(req);
        await setSetting(ctx, staffActor(currentUser(req), req.ip), merchantId, req.params.setting, req.body.value);
        return { data: { value: req.body.value } };
      },
    );
  };
