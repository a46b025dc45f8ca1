import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  roleCreateBody,
  roleListResponse,
  roleParams,
  roleResponse,
  roleUpdateBody,
  userCreateBody,
  userListQuery,
  userListResponse,
  userParams,
  userResponse,
  userRoleBody,
  userStatusBody,
  userWithPasswordResponse,
} from '@paydesk/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context';
import { currentUser, perm, platformPerm } from '../../plugins/auth';
import { staffActor } from '../audit/service';
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
export const usersRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['team'];
    const actor = (req: FastifyRequest) => {
      const user = currentUser(req);
      return { user, audit: staffActor(user, req.ip) };
    };

    app.get(
      '/api/v1/users',
      {
        config: perm('users.manage'),
        schema: { tags, querystring: userListQuery, response: { 200: userListResponse } },
      },
      async (req) => ({ data: await listUsers(ctx, currentUser(req), req.query) }),
    );

    app.post(
      '/api/v1/users',
      {
        config: perm('users.manage'),
        schema: {
          tags,
          description:
            'Creates a user with a one-time password, returned this once; the user must change it at first sign-in.',
          body: userCreateBody,
          response: { 201: userWithPasswordResponse },
        },
      },
      async (req, reply) => reply.status(201).send({ data: await createUser(ctx, actor(req), req.body) }),
    );

    app.put(
      '/api/v1/users/:id/role',
      {
        config: perm('users.manage'),
        schema: { tags, params: userParams, body: userRoleBody, response: { 200: userResponse } },
      },
      async (req) => ({ data: await changeUserRole(ctx, actor(req), req.params.id, req.body.roleId) }),
    );

    app.put(
      '/api/v1/users/:id/status',
      {
        config: perm('users.manage'),
        schema: {
          tags,
          description: 'Disables (ends every session at once) or enables a user.',
          params: userParams,
          body: userStatusBody,
          response: { 200: userResponse },
        },
      },
      async (req) => ({ data: await setUserDisabled(ctx, actor(req), req.params.id, req.body.disabled) }),
    );

    app.post(
      '/api/v1/users/:id/two-factor-reset',
      {
        config: platformPerm('users.manage'),
        schema: {
          tags,
          description:
            "Platform admins only: removes the user's second factor and recovery codes and ends its sessions.",
          params: userParams,
          response: { 200: userResponse },
        },
      },
      async (req) => ({ data: await resetUserTwoFactor(ctx, actor(req), req.params.id) }),
    );

    app.post(
      '/api/v1/users/:id/password-reset',
      {
        config: perm('users.manage'),
        schema: {
          tags,
          description: "Sets a new one-time password (returned this once) and ends the user's sessions.",
          params: userParams,
          response: { 200: userWithPasswordResponse },
        },
      },
      async (req) => ({ data: await resetUserPassword(ctx, actor(req), req.params.id) }),
    );

    app.get(
      '/api/v1/roles',
      { config: perm('users.manage'), schema: { tags, response: { 200: roleListResponse } } },
      async (req) => ({ data: await listRoles(ctx, currentUser(req)) }),
    );

    app.post(
      '/api/v1/roles',
      {
        config: platformPerm('users.manage'),
        schema: { tags, body: roleCreateBody, response: { 201: roleResponse } },
      },
      async (req, reply) => reply.status(201).send({ data: await createRole(ctx, actor(req), req.body) }),
    );

    app.put(
      '/api/v1/roles/:id',
      {
        config: platformPerm('users.manage'),
        schema: { tags, params: roleParams, body: roleUpdateBody, response: { 200: roleResponse } },
      },
      async (req) => ({ data: await updateRole(ctx, actor(req), req.params.id, req.body) }),
    );
  };
