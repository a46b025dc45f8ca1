import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { providerApiRouteSpecs as spec } from '@paydesk/contracts/routes/provider-api';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { serve } from '../../lib/route';
import { resolveProviderTransaction } from '../engine/service';
import { listIncoming, providerIdByCode, reportIncoming } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    providerId?: number;
  }
}

/** Outside production `Bearer dev:<PROVIDER_CODE>` acts as that provider (documented in the README). */
const DEV_TOKEN_PREFIX = 'dev:';

function providerCodeForToken(ctx: AppContext, token: string): string | null {
  const configured = ctx.config.providerTokens.get(token);
  if (configured) return configured;
  if (ctx.config.env !== 'production' && token.startsWith(DEV_TOKEN_PREFIX) && token.length > DEV_TOKEN_PREFIX.length) {
    return token.slice(DEV_TOKEN_PREFIX.length);
  }
  return null;
}

const providerOf = (req: FastifyRequest) => {
  if (req.providerId === undefined) throw new AppError('UNAUTHORIZED', 'Provider token required');
  return req.providerId;
};

export const providerApiPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (req) => {
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
      const code = token ? providerCodeForToken(ctx, token) : null;
      const id = code ? await providerIdByCode(ctx, code) : null;
      if (id === null)
        throw new AppError('UNAUTHORIZED', 'A valid provider token is required (Authorization: Bearer <token>)');
      req.providerId = id;
    });

    serve(app, spec['POST /api/provider/v1/incoming'], async (req) => ({
      data: await reportIncoming(ctx, providerOf(req), req.body),
    }));

    serve(app, spec['GET /api/provider/v1/incoming'], async (req) => ({
      data: await listIncoming(ctx, providerOf(req), req.query.unmatched === 'true', req.query.limit),
    }));

    serve(app, spec['POST /api/provider/v1/payouts/:transactionId'], async (req) => {
      const r = await resolveProviderTransaction(ctx, {
        transactionId: req.params.transactionId,
        result: req.body.status,
        reason: req.body.reason,
        actor: { kind: 'provider' },
        providerId: providerOf(req),
        type: 'PAYOUT',
      });
      return {
        data: {
          transactionId: r.transaction.id,
          transactionStatus: r.transaction.status,
          invoiceId: r.invoice.id,
          invoiceStatus: r.invoice.status,
        },
      };
    });
  };
