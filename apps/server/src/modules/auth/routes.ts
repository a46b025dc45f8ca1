import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jwtVerify } from 'jose';
import {
  changePasswordBody,
  loginBody,
  loginResponse,
  meResponse,
  okResponse,
  recoveryCodesResponse,
  secondFactorBody,
  twoFactorConfirmBody,
  twoFactorEnableBody,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { COOKIE_NAME, currentUser } from '../../plugins/auth';
import { changePassword, login, loginSecondFactor, logout } from './service';
import {
  disableTwoFactor,
  enableTwoFactor,
  renewRecoveryCodes,
  startTwoFactorSetup,
  twoFactorStatus,
} from './two-factor';

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const cookieOpts = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'strict' as const, secure });
    const secureFor = (protocol: string) =>
      ctx.config.cookieSecure === 'true' || (ctx.config.cookieSecure === 'auto' && protocol === 'https');

    app.post(
      '/api/v1/login',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['session'],
          description:
            'Signs in with a password. A user with two-factor sign-in gets a challenge instead of a session: ' +
            'send it with the code to /api/v1/login/second-factor within 5 minutes.',
          body: loginBody,
          response: { 200: loginResponse },
        },
      },
      async (req, reply) => {
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
      },
    );

    app.post(
      '/api/v1/login/second-factor',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['session'],
          description:
            'Second sign-in step: the challenge from /api/v1/login and a 6-digit code from the authenticator app or a ' +
            'recovery code. A wrong code counts as a failed sign-in attempt.',
          body: secondFactorBody,
          response: { 200: okResponse },
        },
      },
      async (req, reply) => {
        const { token, expiresAt } = await loginSecondFactor(
          ctx,
          app.jwtSecret,
          req.body.challenge,
          req.body.code,
          req.ip,
        );
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
        config: { auth: 'session', allowTemporaryPassword: true, allowBeforeTwoFactor: true },
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
            mustSetUpTwoFactor: u.mustSetUpTwoFactor,
            twoFactor: { enabled: u.twoFactorEnabled, required: u.twoFactorRequired },
          },
        };
      },
    );

    app.post(
      '/api/v1/user/change_password',
      {
        config: { auth: 'session', allowTemporaryPassword: true, allowBeforeTwoFactor: true },
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

    const setup = { auth: 'session' as const, allowBeforeTwoFactor: true };
    app.get(
      '/api/v1/user/two-factor',
      {
        config: setup,
        schema: {
          tags: ['session'],
          description: "The signed-in user's two-factor sign-in.",
          response: { 200: twoFactorStatusResponse },
        },
      },
      async (req) => ({ data: await twoFactorStatus(ctx, currentUser(req)) }),
    );

    app.post(
      '/api/v1/user/two-factor/setup',
      {
        config: setup,
        schema: {
          tags: ['session'],
          description:
            'Starts a setup: a new TOTP secret (and its otpauth:// URI for a QR code), confirmed by /enable.',
          response: { 200: twoFactorSetupResponse },
        },
      },
      async (req) => ({ data: await startTwoFactorSetup(ctx, currentUser(req)) }),
    );

    app.post(
      '/api/v1/user/two-factor/enable',
      {
        config: setup,
        schema: {
          tags: ['session'],
          description: "Confirms the setup with the app's current code; returns ten one-time recovery codes, once.",
          body: twoFactorEnableBody,
          response: { 200: recoveryCodesResponse },
        },
      },
      async (req) => ({
        data: { recoveryCodes: await enableTwoFactor(ctx, currentUser(req), req.ip, req.body.code) },
      }),
    );

    app.post(
      '/api/v1/user/two-factor/disable',
      {
        config: { auth: 'session' },
        schema: {
          tags: ['session'],
          description: 'Turns two-factor sign-in off (not where it is required); takes a current or recovery code.',
          body: twoFactorConfirmBody,
          response: { 200: okResponse },
        },
      },
      async (req) => {
        await disableTwoFactor(ctx, currentUser(req), req.ip, req.body.code);
        return { data: { ok: true as const } };
      },
    );

    app.post(
      '/api/v1/user/two-factor/recovery-codes',
      {
        config: { auth: 'session' },
        schema: {
          tags: ['session'],
          description: 'Replaces the recovery codes with ten new ones (shown once); takes a current or recovery code.',
          body: twoFactorConfirmBody,
          response: { 200: recoveryCodesResponse },
        },
      },
      async (req) => ({
        data: { recoveryCodes: await renewRecoveryCodes(ctx, currentUser(req), req.ip, req.body.code) },
      }),
    );
  };
