import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationRouteSpecs as spec } from '@paydesk/contracts/routes/notifications';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { currentUser } from '../../plugins/auth';
import { listNotifications, notificationScope } from './service';

/** Alerts for people: every signed-in user, each seeing the kinds and the merchant their permissions allow. */
export const notificationsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/notifications'], async (req) =>
      listNotifications(ctx.db, notificationScope(currentUser(req)), req.query, ctx.now()),
    );
  };
