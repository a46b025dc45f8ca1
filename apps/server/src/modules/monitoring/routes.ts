import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  statisticSettingsQuery,
  statisticSettingsResponse,
  terminalStatisticQuery,
  terminalStatisticResponse,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import { statisticSettings, terminalStatistics } from './service';

export const monitoringRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/data/v1/terminal',
      {
        config: perm('data.terminal.statistic'),
        schema: {
          tags: ['monitoring'],
          querystring: terminalStatisticQuery,
          response: { 200: terminalStatisticResponse },
        },
      },
      async (req) => {
        const merchantId = await merchantOf(req);
        return { data: await terminalStatistics(ctx, merchantId, req.query.minutes) };
      },
    );

    app.get(
      '/api/v1/terminal/statistic',
      {
        config: perm('terminal.statistic.settings'),
        schema: {
          tags: ['monitoring'],
          querystring: statisticSettingsQuery,
          response: { 200: statisticSettingsResponse },
        },
      },
      async (req) => {
        const user = currentUser(req);
        const all = user.permissions.includes('merchant.rw.all');
        const merchantId = all ? '' : await merchantOf(req);
        return { data: await statisticSettings(ctx, { all, merchantId }) };
      },
    );
  };
