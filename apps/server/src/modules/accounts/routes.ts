import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountCreateBody,
  accountCreateResponse,
  accountDetailsResponse,
  accountEnabledBody,
  accountEnabledResponse,
  accountLimitBody,
  accountLimitResponse,
  accountListResponse,
  accountParams,
  credentialCreateBody,
  credentialParams,
  credentialResponse,
  credentialUpdateBody,
  okResponse,
  plainScopedQuery,
} from '@paydesk/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context';
import { staffActor } from '../audit/service';
import { currentUser, perm } from '../../plugins/auth';
import {
  addCredential,
  createAccount,
  getAccount,
  getLimit,
  listAccounts,
  removeCredential,
  setAccountEnabled,
  setLimit,
  updateCredential,
} from './service';

/** Provider accounts are not merchant-owned: people.account reads, people.account.edit changes. */
export const accountsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['accounts'];
    const read = perm('people.account');
    const edit = perm('people.account', 'people.account.edit');
    const querystring = plainScopedQuery;
    const audit = (req: FastifyRequest) => staffActor(currentUser(req), req.ip);

    app.get(
      '/api/v1/people/account',
      { config: read, schema: { tags, querystring, response: { 200: accountListResponse } } },
      async () => ({
        data: await listAccounts(ctx),
      }),
    );

    app.get(
      '/api/v1/people/account/:id',
      { config: read, schema: { tags, params: accountParams, querystring, response: { 200: accountDetailsResponse } } },
      async (req) => ({ data: await getAccount(ctx, currentUser(req), req.params.id) }),
    );

    app.patch(
      '/api/v1/people/account/:id',
      {
        config: edit,
        schema: {
          tags,
          params: accountParams,
          querystring,
          body: accountEnabledBody,
          response: { 200: accountEnabledResponse },
        },
      },
      async (req) => ({ data: await setAccountEnabled(ctx, audit(req), req.params.id, req.body.enabled) }),
    );

    app.post(
      '/api/v1/people/create',
      {
        config: edit,
        schema: { tags, querystring, body: accountCreateBody, response: { 201: accountCreateResponse } },
      },
      async (req, reply) => reply.status(201).send({ data: await createAccount(ctx, audit(req), req.body) }),
    );

    app.post(
      '/api/v1/people/account/credentials',
      {
        config: edit,
        schema: { tags, querystring, body: credentialCreateBody, response: { 201: credentialResponse } },
      },
      async (req, reply) =>
        reply.status(201).send({ data: await addCredential(ctx, currentUser(req), audit(req), req.body) }),
    );

    app.put(
      '/api/v1/people/account/credentials/:credentialId',
      {
        config: edit,
        schema: {
          tags,
          params: credentialParams,
          querystring,
          body: credentialUpdateBody,
          response: { 200: credentialResponse },
        },
      },
      async (req) => ({
        data: await updateCredential(ctx, currentUser(req), audit(req), req.params.credentialId, req.body.value),
      }),
    );

    app.delete(
      '/api/v1/people/account/credentials/:credentialId',
      { config: edit, schema: { tags, params: credentialParams, querystring, response: { 200: okResponse } } },
      async (req) => {
        await removeCredential(ctx, audit(req), req.params.credentialId);
        return { data: { ok: true as const } };
      },
    );

    app.get(
      '/api/router/v1/people/account/limit/:id',
      { config: read, schema: { tags, params: accountParams, querystring, response: { 200: accountLimitResponse } } },
      async (req) => ({ data: await getLimit(ctx, req.params.id) }),
    );

    app.put(
      '/api/router/v1/people/account/limit/:id',
      {
        config: edit,
        schema: {
          tags,
          params: accountParams,
          querystring,
          body: accountLimitBody,
          response: { 200: accountLimitResponse },
        },
      },
      async (req) => ({ data: await setLimit(ctx, audit(req), req.params.id, req.body) }),
    );
  };
