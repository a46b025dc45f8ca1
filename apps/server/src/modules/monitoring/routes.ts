import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { monitoringRouteSpecs as spec } from '@paydesk/contracts/routes/monitoring';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentUser } from '../../plugins/auth';
import { statisticSettings, terminalStatistics } from './service';

export const monitoringPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/data/v1/terminal'], async (req) => {
      const merchantId = await merchantOf(req);
      return { data: await terminalStatistics(ctx, merchantId, req.query.minutes) };
    });

    serve(app, spec['GET /api/v1/terminal/statistic'], async (req) => {
      const user = currentUser(req);
      const all = user.permissions.includes('merchant.rw.all');
      const merchantId = all ? '' : await merchantOf(req);
      return { data: await statisticSettings(ctx, { all, merchantId }) };
    });
  };
