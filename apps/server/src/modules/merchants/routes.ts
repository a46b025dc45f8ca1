import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { merchantRouteSpecs as spec } from '@paydesk/contracts/routes/merchants';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { heldOr, serve } from '../../lib/route';
import { currentUser } from '../../plugins/auth';
import { merchantScope, merchantOf } from '../../lib/scope';
import { staffActor } from '../audit/service';
import {
  createMerchant,
  getMerchant,
  listMerchants,
  renameMerchant,
  replacePublicKey,
  rotateWebhookSecret,
  setTwoFactorPolicy,
} from './service';

export const merchantsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const audit = (req: FastifyRequest) => staffActor(currentUser(req), req.ip);
    /** The merchant named in the path, which must be the caller's scope; another merchant's id is "not found". */
    const ownMerchant = async (req: FastifyRequest, requested: string) => {
      const id = await merchantScope(ctx, currentUser(req), requested);
      if (id !== requested) throw notFound('Merchant');
      return id;
    };

    serve(app, spec['GET /api/v1/merchant/me'], async (req) => ({
      data: await getMerchant(ctx, await merchantOf(req)),
    }));

    serve(app, spec['GET /api/v1/merchant'], async (req) => listMerchants(ctx, req.query.page, req.query.size));

    serve(app, spec['PUT /api/v1/merchant/:id'], async (req) => ({
      data: await renameMerchant(ctx, audit(req), await ownMerchant(req, req.params.id), req.body.name),
    }));

    // under a two-person policy: 202 with the approval request
    serve(app, spec['PUT /api/v1/merchant/:id/public-key'], async (req, reply) =>
      heldOr(
        reply,
        await replacePublicKey(ctx, audit(req), await ownMerchant(req, req.params.id), req.body.clientPublicKey),
      ),
    );

    serve(app, spec['PUT /api/v1/merchant/:id/two-factor-policy'], async (req) => ({
      data: await setTwoFactorPolicy(ctx, audit(req), await ownMerchant(req, req.params.id), req.body.requireTwoFactor),
    }));

    serve(app, spec['POST /api/v1/merchant/:id/webhook-secret'], async (req) => ({
      data: await rotateWebhookSecret(ctx, audit(req), await ownMerchant(req, req.params.id)),
    }));

    serve(app, spec['POST /api/v1/merchant'], async (req, reply) =>
      reply.status(201).send({ data: await createMerchant(ctx, audit(req), req.body.name) }),
    );
  };
