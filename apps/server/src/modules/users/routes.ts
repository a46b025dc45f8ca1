import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userRouteSpecs as spec } from '@paydesk/contracts/routes/users';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { currentCaller, currentUser } from '../../plugins/auth';
import {
  changeUserRole,
  createRole,
  createUser,
  listRoles,
  listUsers,
  resetUserPassword,
  resetUserTwoFactor,
  setUserDisabled,
  updateRole,
} from './service';

/** Team management (users.manage): platform staff manage everyone, a merchant's staff their own team. */
export const usersPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const actor = currentCaller;

    serve(app, spec['GET /api/v1/users'], async (req) => ({
      data: await listUsers(ctx, currentUser(req), req.query),
    }));

    serve(app, spec['POST /api/v1/users'], async (req, reply) =>
      reply.status(201).send({ data: await createUser(ctx, actor(req), req.body) }),
    );

    serve(app, spec['PUT /api/v1/users/:id/role'], async (req) => ({
      data: await changeUserRole(ctx, actor(req), req.params.id, req.body.roleId),
    }));

    serve(app, spec['PUT /api/v1/users/:id/status'], async (req) => ({
      data: await setUserDisabled(ctx, actor(req), req.params.id, req.body.disabled),
    }));

    serve(app, spec['POST /api/v1/users/:id/two-factor-reset'], async (req) => ({
      data: await resetUserTwoFactor(ctx, actor(req), req.params.id),
    }));

    serve(app, spec['POST /api/v1/users/:id/password-reset'], async (req) => ({
      data: await resetUserPassword(ctx, actor(req), req.params.id),
    }));

    serve(app, spec['GET /api/v1/roles'], async (req) => ({ data: await listRoles(ctx, currentUser(req)) }));

    serve(app, spec['POST /api/v1/roles'], async (req, reply) =>
      reply.status(201).send({ data: await createRole(ctx, actor(req), req.body) }),
    );

    serve(app, spec['PUT /api/v1/roles/:id'], async (req) => ({
      data: await updateRole(ctx, actor(req), req.params.id, req.body),
    }));
  };
