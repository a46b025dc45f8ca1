import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountRouteSpecs as spec } from '@paydesk/contracts/routes/accounts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context';
import { heldOr, serve } from '../../lib/route';
import { staffActor } from '../audit/service';
import { currentUser } from '../../plugins/auth';
import {
  addCredential,
  createAccount,
  getAccount,
  getLimit,
  listAccounts,
  removeCredential,
  revealCredential,
  setAccountEnabled,
  setLimit,
  updateCredential,
} from './service';

/** Provider accounts are not merchant-owned: people.account reads, people.account.edit changes. */
export const accountsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const audit = (req: FastifyRequest) => staffActor(currentUser(req), req.ip);

    serve(app, spec['GET /api/v1/people/account'], async () => ({
      data: await listAccounts(ctx),
    }));

    serve(app, spec['GET /api/v1/people/account/:id'], async (req) => ({
      data: await getAccount(ctx, req.params.id),
    }));

    serve(app, spec['PATCH /api/v1/people/account/:id'], async (req) => ({
      data: await setAccountEnabled(ctx, audit(req), req.params.id, req.body.enabled),
    }));

    serve(app, spec['POST /api/v1/people/create'], async (req, reply) =>
      reply.status(201).send({ data: await createAccount(ctx, audit(req), req.body) }),
    );

    // credential changes and limit raises a two-person policy covers answer 202 with their approval request
    serve(app, spec['POST /api/v1/people/account/credentials'], async (req, reply) => {
      const out = await addCredential(ctx, audit(req), req.body);
      return 'held' in out ? reply.status(202).send({ data: out.held }) : reply.status(201).send({ data: out });
    });

    serve(app, spec['PUT /api/v1/people/account/credentials/:credentialId'], async (req, reply) =>
      heldOr(reply, await updateCredential(ctx, audit(req), req.params.credentialId, req.body.value)),
    );

    serve(app, spec['POST /api/v1/people/account/credentials/:credentialId/reveal'], async (req) => {
      const user = currentUser(req);
      return {
        data: await revealCredential(ctx, { ...staffActor(user, req.ip), userId: user.id }, req.params.credentialId),
      };
    });

    serve(app, spec['DELETE /api/v1/people/account/credentials/:credentialId'], async (req, reply) => {
      const held = await removeCredential(ctx, audit(req), req.params.credentialId);
      return held ? reply.status(202).send({ data: held.held }) : { data: { ok: true as const } };
    });

    serve(app, spec['GET /api/router/v1/people/account/limit/:id'], async (req) => ({
      data: await getLimit(ctx, req.params.id),
    }));

    serve(app, spec['PUT /api/router/v1/people/account/limit/:id'], async (req, reply) =>
      heldOr(reply, await setLimit(ctx, audit(req), req.params.id, req.body)),
    );
  };
