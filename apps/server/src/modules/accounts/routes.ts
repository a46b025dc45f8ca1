import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountsRoutes as spec } from '@paydesk/contracts/routes/accounts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { staffActor } from '../audit/service';
import { currentUser } from '../../plugins/auth';
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
    const audit = (req: FastifyRequest) => staffActor(currentUser(req), req.ip);

    serve(app, spec['GET /api/v1/people/account'], async () => ({
      data: await listAccounts(ctx),
    }));

    serve(app, spec['GET /api/v1/people/account/:id'], async (req) => ({
      data: await getAccount(ctx, currentUser(req), req.params.id),
    }));

    serve(app, spec['PATCH /api/v1/people/account/:id'], async (req) => ({
      data: await setAccountEnabled(ctx, audit(req), req.params.id, req.body.enabled),
    }));

    serve(app, spec['POST /api/v1/people/create'], async (req, reply) =>
      reply.status(201).send({ data: await createAccount(ctx, audit(req), req.body) }),
    );

    serve(app, spec['POST /api/v1/people/account/credentials'], async (req, reply) =>
      reply.status(201).send({ data: await addCredential(ctx, currentUser(req), audit(req), req.body) }),
    );

    serve(app, spec['PUT /api/v1/people/account/credentials/:credentialId'], async (req) => ({
      data: await updateCredential(ctx, currentUser(req), audit(req), req.params.credentialId, req.body.value),
    }));

    serve(app, spec['DELETE /api/v1/people/account/credentials/:credentialId'], async (req) => {
      await removeCredential(ctx, audit(req), req.params.credentialId);
      return { data: { ok: true as const } };
    });

    serve(app, spec['GET /api/router/v1/people/account/limit/:id'], async (req) => ({
      data: await getLimit(ctx, req.params.id),
    }));

    serve(app, spec['PUT /api/router/v1/people/account/limit/:id'], async (req) => ({
      data: await setLimit(ctx, audit(req), req.params.id, req.body),
    }));
  };
