import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jwtVerify } from 'jose';
import { changePasswordBody, loginBody, meResponse, okResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { COOKIE_NAME, currentUser } from '../../plugins/auth';
import { changePassword, login, logout } from './service';

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const cookieOpts = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'strict' as const, secure });
    const secureFor = (protocol: string) =>
      ctx.config.cookieSecure === 'true' || (ctx.config.cookieSecure === 'auto' && protocol === 'https');

    app.post(
      '/api/v1/login',
      { config: { auth: 'public' }, schema: { tags: ['session'], body: loginBody, response: { 200: okResponse } } },
      async (req, reply) => {
        const { token, expiresAt } = await login(ctx, app.jwtSecret, req.body.username, req.body.password, req.ip);
        reply.setCookie(COOKIE_NAME, token, { ...cookieOpts(secureFor(req.protocol)), expires: expiresAt });
        return { data: { ok: true as const } };
      },
    );

    app.post(
      '/api/v1/logout',
      { config: { auth: 'public' }, schema: { tags: ['session'], response: { 200: okResponse } } },
      async (req, reply) => {
        const token = req.cookies[COOKIE_NAME];
        if (token) {
          try {
            const { payload } = await jwtVerify(token, app.jwtSecret, { algorithms: ['HS256'] });
            if (payload.jti) await logout(ctx, payload.jti);
          } catch {
            /* an invalid token is as good as gone */
          }
        }
        reply.clearCookie(COOKIE_NAME, cookieOpts(secureFor(req.protocol)));
        return { data: { ok: true as const } };
      },
    );

    app.get(
      '/api/v1/people/me',
      {
        config: { auth: 'session', allowTemporaryPassword: true },
        schema: { tags: ['session'], response: { 200: meResponse } },
      },
      async (req) => {
        const u = currentUser(req);
        return {
          data: {
            id: u.id,
            username: u.username,
            permissions: u.permissions,
            personal: { firstName: u.firstName, lastName: u.lastName },
            merchantId: u.merchantId,
            scope: u.scope,
            role: { id: u.roleId, name: u.roleName },
            mustChangePassword: u.mustChangePassword,
          },
        };
      },
    );

    app.post(
      '/api/v1/user/change_password',
      {
        config: { auth: 'session', allowTemporaryPassword: true },
        schema: {
          tags: ['session'],
          description: "Changes the signed-in user's password and ends its other sessions.",
          body: changePasswordBody,
          response: { 200: okResponse },
        },
      },
      async (req) => {
        const u = currentUser(req);
        await changePassword(ctx, u, req.ip, req.body.currentPassword, req.body.newPassword);
        return { data: { ok: true as const } };
      },
    );
  };
