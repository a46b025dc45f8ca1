import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exceptionRouteSpecs as spec } from '@paydesk/contracts/routes/exceptions';
import { hasPermission, refusalMessage } from '@paydesk/contracts/permissions';
import type { AppContext } from '../../lib/context';
import { forbidden } from '../../lib/errors';
import { heldOr, serve } from '../../lib/route';
import { currentUser } from '../../plugins/auth';
import { operatorActor } from '../engine/service';
import { suspenseBalances } from '../ledger/service';
import { exceptionCsvFilename, exceptionSummary, exportExceptionCsv, listStuck } from './queues';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';
import { incomingDetail, listContradictions, listIncoming, resolveContradiction, resolveIncoming } from './service';

/** The operations desk: platform staff only (the route table says so; the auth plugin enforces it). */
export const exceptionsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/exceptions/summary'], async () => ({
      data: await exceptionSummary(ctx.db, ctx.now()),
    }));
    serve(
      app,
      spec['GET /api/v1/exceptions/csv'],
      async (req, reply) => {
        // provider accounts are read with their own permission, which the desk's alone does not give
        if (req.query.queue === 'paused' && !hasPermission(currentUser(req).permissions, 'people.account'))
          throw forbidden(refusalMessage(['people.account']));
        const stream = await exportExceptionCsv(ctx, req.query);
        return attachmentHeaders(reply, exceptionCsvFilename(req.query.queue)).send(stream);
      },
      { onSend: framableBySameOrigin },
    );
    serve(app, spec['GET /api/v1/exceptions/stuck'], async (req) => listStuck(ctx.db, req.query, ctx.now()));
    serve(app, spec['GET /api/v1/incoming'], async (req) => listIncoming(ctx.db, req.query));
    serve(app, spec['GET /api/v1/incoming/:id'], async (req) => ({
      data: await incomingDetail(ctx.db, req.params.id),
    }));
    // matching or returning money a two-person policy covers answers 202 with its approval request
    serve(app, spec['POST /api/v1/incoming/:id/match'], async (req, reply) =>
      heldOr(
        reply,
        await resolveIncoming(ctx, {
          kind: 'match',
          incomingId: req.params.id,
          invoiceId: req.body.invoiceId,
          reason: req.body.reason,
          actor: operatorActor(currentUser(req), req.ip),
        }),
      ),
    );
    serve(app, spec['POST /api/v1/incoming/:id/return'], async (req, reply) =>
      heldOr(
        reply,
        await resolveIncoming(ctx, {
          kind: 'return',
          incomingId: req.params.id,
          reference: req.body.reference,
          reason: req.body.reason,
          actor: operatorActor(currentUser(req), req.ip),
        }),
      ),
    );
    serve(app, spec['GET /api/v1/ledger/suspense'], async () => ({ data: await suspenseBalances(ctx.db) }));
    serve(app, spec['GET /api/v1/contradictions'], async (req) => listContradictions(ctx.db, req.query));
    serve(app, spec['POST /api/v1/contradictions/:id/resolve'], async (req) => ({
      data: await resolveContradiction(ctx, {
        id: req.params.id,
        resolution: req.body.resolution,
        reason: req.body.reason,
        actor: operatorActor(currentUser(req), req.ip),
      }),
    }));
  };
