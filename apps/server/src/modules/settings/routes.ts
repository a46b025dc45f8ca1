import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settingBody, settingParams, settingResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { perm } from '../../plugins/auth';
import { getSetting, setSetting } from './service';

export const settingsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/settings/:setting',
      {
        config: perm('settings.read'),
        schema: { tags: ['settings'], params: settingParams, response: { 200: settingResponse } },
      },
      async (req) => ({ data: { value: await getSetting(ctx.db, req.params.setting) } }),
    );
    app.post(
      '/api/v1/settings/:setting',
      {
        config: perm('settings.edit'),
        schema: { tags: ['settings'], params: settingParams, body: settingBody, response: { 200: settingResponse } },
      },
      async (req) => {
        await setSetting(ctx.db, req.params.setting, req.body.value);
        return { data: { value: req.body.value } };
      },
    );
  };
