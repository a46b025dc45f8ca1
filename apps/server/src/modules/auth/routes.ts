import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jwtVerify } from 'jose';
import { authRouteSpecs as spec } from '@paydesk/contracts/routes/auth';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { COOKIE_NAME, currentUser } from '../../plugins/auth';
import { changePassword, login, loginSecondFactor, logout } from './service';
import {
  disableTwoFactor,
  enableTwoFactor,
  renewRecoveryCodes,
  startTwoFactorSetup,
  twoFactorStatus,
} from './two-factor';

export const authPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const cookieOpts = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'strict' as const, secure });
    const secureFor = (protocol: string) =>
      ctx.config.cookieSecure === 'true' || (ctx.config.cookieSecure === 'auto' && protocol === 'https');

    serve(app, spec['POST /api/v1/login'], async (req, reply) => {
      const outcome = await login(ctx, app.jwtSecret, req.body.username, req.body.password, req.ip);
      if (outcome.kind === 'second_factor') {
        const { challenge, expiresAt } = outcome;
        return {
          data: { ok: false as const, secondFactor: 'totp' as const, challenge, expiresAt: expiresAt.toISOString() },
        };
      }
      reply.setCookie(COOKIE_NAME, outcome.token, {
        ...cookieOpts(secureFor(req.protocol)),
        expires: outcome.expiresAt,
      });
      return { data: { ok: true as const } };
    });

    serve(app, spec['POST /api/v1/login/second-factor'], async (req, reply) => {
      const { token, expiresAt } = await loginSecondFactor(
        ctx,
        app.jwtSecret,
        req.body.challenge,
        req.body.code,
        req.ip,
      );
      reply.setCookie(COOKIE_NAME, token, { ...cookieOpts(secureFor(req.protocol)), expires: expiresAt });
      return { data: { ok: true as const } };
    });

    serve(app, spec['POST /api/v1/logout'], async (req, reply) => {
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
    });

    serve(app, spec['GET /api/v1/people/me'], async (req) => {
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
          mustSetUpTwoFactor: u.mustSetUpTwoFactor,
          twoFactor: { enabled: u.twoFactorEnabled, required: u.twoFactorRequired },
        },
      };
    });

    serve(app, spec['POST /api/v1/user/change_password'], async (req) => {
      const u = currentUser(req);
      await changePassword(ctx, u, req.ip, req.body.currentPassword, req.body.newPassword);
      return { data: { ok: true as const } };
    });

    serve(app, spec['GET /api/v1/user/two-factor'], async (req) => ({
      data: await twoFactorStatus(ctx, currentUser(req)),
    }));

    serve(app, spec['POST /api/v1/user/two-factor/setup'], async (req) => ({
      data: await startTwoFactorSetup(ctx, currentUser(req)),
    }));

    serve(app, spec['POST /api/v1/user/two-factor/enable'], async (req) => ({
      data: { recoveryCodes: await enableTwoFactor(ctx, currentUser(req), req.ip, req.body.code) },
    }));

    serve(app, spec['POST /api/v1/user/two-factor/disable'], async (req) => {
      await disableTwoFactor(ctx, currentUser(req), req.ip, req.body.code);
      return { data: { ok: true as const } };
    });

    serve(app, spec['POST /api/v1/user/two-factor/recovery-codes'], async (req) => ({
      data: { recoveryCodes: await renewRecoveryCodes(ctx, currentUser(req), req.ip, req.body.code) },
    }));
  };
