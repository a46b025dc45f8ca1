import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  merchantScopeQuery,
  merchantTerminalParams,
  okResponse,
  plainScopedQuery,
  terminalAttributeDeleteQuery,
  terminalCreateBody,
  terminalDetailsResponse,
  terminalListResponse,
  terminalParams,
  terminalPatchBody,
  terminalPutBody,
  testDashboardBody,
  testDashboardResponse,
} from '@paydesk/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../lib/context';
import { staffActor } from '../audit/service';
import { notFound } from '../../lib/errors';
import { merchantScope, merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import {
  createTerminal,
  deleteAttribute,
  getTerminal,
  listTerminals,
  switchToProduction,
  updateTerminal,
} from './service';

export const terminalsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['terminals'];
    const actor = (req: FastifyRequest) => {
      const user = currentUser(req);
      return { ...user, audit: staffActor(user, req.ip) };
    };

    app.get(
      '/api/v1/terminal',
      {
        config: { auth: 'session' },
        schema: { tags, querystring: merchantScopeQuery.strict(), response: { 200: terminalListResponse } },
      },
      async (req) => ({ data: await listTerminals(ctx, await merchantOf(req)) }),
    );

    app.get(
      '/api/v1/terminal/:id',
      {
        config: { auth: 'session' },
        schema: {
          tags,
          params: terminalParams,
          querystring: plainScopedQuery,
          response: { 200: terminalDetailsResponse },
        },
      },
      async (req) => ({
        data: await getTerminal(ctx, actor(req), await merchantOf(req), req.params.id),
      }),
    );

    app.patch(
      '/api/v1/terminal/:id',
      {
        config: { auth: 'session' },
        schema: {
          tags,
          description: 'Rename (terminal.create) and/or upsert attributes by type (terminal.attr.read).',
          params: terminalParams,
          querystring: plainScopedQuery,
          body: terminalPatchBody,
          response: { 200: terminalDetailsResponse },
        },
      },
      async (req) => ({
        data: await updateTerminal(ctx, actor(req), await merchantOf(req), req.params.id, req.body, 'merge'),
      }),
    );

    app.put(
      '/api/v1/terminal/:id',
      {
        config: perm('terminal.create', 'terminal.attr.read'),
        schema: {
          tags,
          description:
            'Name and the full attribute set (replaces the stored set). Needs terminal.create and terminal.attr.read.',
          params: terminalParams,
          querystring: plainScopedQuery,
          body: terminalPutBody,
          response: { 200: terminalDetailsResponse },
        },
      },
      async (req) => ({
        data: await updateTerminal(ctx, actor(req), await merchantOf(req), req.params.id, req.body, 'replace'),
      }),
    );

    app.delete(
      '/api/v1/terminal/:id',
      {
        config: perm('terminal.attr.read'),
        schema: {
          tags,
          description: 'Removes one attribute of the terminal.',
          params: terminalParams,
          querystring: terminalAttributeDeleteQuery,
          response: { 200: okResponse },
        },
      },
      async (req) => {
        await deleteAttribute(ctx, actor(req).audit, await merchantOf(req), req.params.id, req.query.attributeId);
        return { data: { ok: true as const } };
      },
    );

    app.post(
      '/api/v1/merchant/:merchantId/terminal',
      {
        config: perm('terminal.create'),
        schema: {
          tags,
          params: merchantTerminalParams,
          querystring: plainScopedQuery,
          body: terminalCreateBody,
          response: { 201: terminalDetailsResponse },
        },
      },
      async (req, reply) => {
        const user = actor(req);
        // the named merchant must be the caller's scope; merchant.rw.all may name any existing one
        const merchantId = await merchantScope(ctx, user, req.params.merchantId);
        if (merchantId !== req.params.merchantId) throw notFound('Merchant');
        return reply.status(201).send({ data: await createTerminal(ctx, user, merchantId, req.body) });
      },
    );

    app.patch(
      '/api/v1/people/me/testDashboard',
      {
        config: perm('terminal.prod.change'),
        schema: {
          tags,
          description: 'Switches a test terminal to production (not reversible here). 409 when it already is.',
          querystring: plainScopedQuery,
          body: testDashboardBody,
          response: { 200: testDashboardResponse },
        },
      },
      async (req) => ({
        data: await switchToProduction(ctx, actor(req), await merchantOf(req), req.body.terminalId),
      }),
    );
  };
