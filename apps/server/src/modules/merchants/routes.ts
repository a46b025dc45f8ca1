import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  merchantCreateBody,
  merchantListQuery,
  merchantListResponse,
  merchantParams,
  merchantPublicKeyBody,
  merchantResponse,
  merchantScopeQuery,
  merchantTwoFactorPolicyBody,
  merchantUpdateBody,
  plainScopedQuery,
  webhookSecretResponse,
} from '@paydesk/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { currentUser, perm } from '../../plugins/auth';
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

export const merchantsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['merchant'];
    const audit = (req: FastifyRequest) => staffActor(currentUser(req), req.ip);
    /** The merchant named in the path, which must be the caller's scope; another merchant's id is "not found". */
    const ownMerchant = async (req: FastifyRequest, requested: string) => {
      const id = await merchantScope(ctx, currentUser(req), requested);
      if (id !== requested) throw notFound('Merchant');
      return id;
    };

    app.get(
      '/api/v1/merchant/me',
      {
        config: perm('merchant.read'),
        schema: { tags, querystring: merchantScopeQuery.strict(), response: { 200: merchantResponse } },
      },
      async (req) => ({ data: await getMerchant(ctx, await merchantOf(req)) }),
    );

    app.get(
      '/api/v1/merchant',
      {
        config: perm('merchant.rw.all'),
        schema: { tags, querystring: merchantListQuery, response: { 200: merchantListResponse } },
      },
      async (req) => listMerchants(ctx, req.query.page, req.query.size),
    );

    app.put(
      '/api/v1/merchant/:id',
      {
        config: perm('merchant.read'),
        schema: {
          tags,
          description: 'Renames the merchant (SPEC: merchant.read). Keys change through their own routes.',
          params: merchantParams,
          querystring: plainScopedQuery,
          body: merchantUpdateBody,
          response: { 200: merchantResponse },
        },
      },
      async (req) => ({
        data: await renameMerchant(ctx, audit(req), await ownMerchant(req, req.params.id), req.body.name),
      }),
    );

    app.put(
      '/api/v1/merchant/:id/public-key',
      {
        config: perm('merchant.key.edit'),
        schema: {
          tags,
          description: 'Replaces the Ed25519 public key the merchant API verifies request signatures with.',
          params: merchantParams,
          querystring: plainScopedQuery,
          body: merchantPublicKeyBody,
          response: { 200: merchantResponse },
        },
      },
      async (req) => ({
        data: await replacePublicKey(ctx, audit(req), await ownMerchant(req, req.params.id), req.body.clientPublicKey),
      }),
    );

    app.put(
      '/api/v1/merchant/:id/two-factor-policy',
      {
        config: perm('users.manage'),
        schema: {
          tags,
          description: "Requires (or stops requiring) two-factor sign-in of every user of the merchant's team.",
          params: merchantParams,
          querystring: plainScopedQuery,
          body: merchantTwoFactorPolicyBody,
          response: { 200: merchantResponse },
        },
      },
      async (req) => ({
        data: await setTwoFactorPolicy(
          ctx,
          audit(req),
          await ownMerchant(req, req.params.id),
          req.body.requireTwoFactor,
        ),
      }),
    );

    app.post(
      '/api/v1/merchant/:id/webhook-secret',
      {
        config: perm('merchant.key.edit'),
        schema: {
          tags,
          description:
            'Rotates the webhook secret. The new secret is returned this once; the previous one keeps signing callbacks beside it for 24 h.',
          params: merchantParams,
          querystring: plainScopedQuery,
          response: { 200: webhookSecretResponse },
        },
      },
      async (req) => ({ data: await rotateWebhookSecret(ctx, audit(req), await ownMerchant(req, req.params.id)) }),
    );

    app.post(
      '/api/v1/merchant',
      {
        config: perm('merchant.rw.all'),
        schema: { tags, querystring: plainScopedQuery, body: merchantCreateBody, response: { 201: merchantResponse } },
      },
      async (req, reply) => reply.status(201).send({ data: await createMerchant(ctx, audit(req), req.body.name) }),
    );
  };
