import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  merchantCreateBody,
  merchantListQuery,
  merchantListResponse,
  merchantParams,
  merchantResponse,
  merchantScopeQuery,
  merchantUpdateBody,
  plainScopedQuery,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { currentUser, perm } from '../../plugins/auth';
import { merchantScope, requestMerchant } from '../../lib/scope';
import { createMerchant, getMerchant, listMerchants, updateMerchant } from './service';

export const merchantsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['merchant'];

    app.get(
      '/api/v1/merchant/me',
      {
        config: perm('merchant.read'),
        schema: { tags, querystring: merchantScopeQuery.strict(), response: { 200: merchantResponse } },
      },
      async (req) => ({ data: await getMerchant(ctx, await requestMerchant(ctx, req)) }),
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
          description: 'Name and (optionally) the Ed25519 public key the merchant API verifies signatures with.',
          params: merchantParams,
          querystring: plainScopedQuery,
          body: merchantUpdateBody,
          response: { 200: merchantResponse },
        },
      },
      async (req) => {
        // own merchant only, unless merchant.rw.all; another merchant's id is "not found"
        const id = await merchantScope(ctx, currentUser(req), req.params.id);
        if (id !== req.params.id) throw notFound('Merchant');
        return { data: await updateMerchant(ctx, id, req.body) };
      },
    );

    app.post(
      '/api/v1/merchant',
      {
        config: perm('merchant.rw.all'),
        schema: { tags, querystring: plainScopedQuery, body: merchantCreateBody, response: { 201: merchantResponse } },
      },
      async (req, reply) => reply.status(201).send({ data: await createMerchant(ctx, req.body.name) }),
    );
  };
