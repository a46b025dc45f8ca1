import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import { reportFileName, type ReportKind } from '@paydesk/contracts';
import { reportRouteSpecs as spec } from '@paydesk/contracts/routes/reports';
import type { AppContext } from '../../lib/context';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';
import { serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { balanceReport, invoiceReport, poolBalanceReport, providerReport } from './service';

function sendCsv(reply: FastifyReply, kind: ReportKind, q: { periodStart: string; periodEnd: string }, body: Readable) {
  return attachmentHeaders(reply, reportFileName(kind, q.periodStart, q.periodEnd)).send(body);
}

export const reportsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // every route here is a CSV download, which the back-office makes by navigating a hidden frame to it (streamed
    // to disk, errors read back); the hook stays inside this plugin
    app.addHook('onSend', framableBySameOrigin);
    serve(app, spec['GET /api/v1/report/invoice'], async (req, reply) =>
      sendCsv(reply, 'invoice', req.query, await invoiceReport(ctx, await merchantOf(req), req.query)),
    );
    serve(app, spec['GET /api/v1/report/balance'], async (req, reply) =>
      sendCsv(reply, 'balance', req.query, await balanceReport(ctx, await merchantOf(req), req.query)),
    );
    serve(app, spec['GET /api/v1/report/provider'], async (req, reply) =>
      sendCsv(reply, 'provider', req.query, await providerReport(ctx, await merchantOf(req), req.query)),
    );
    serve(app, spec['GET /api/v1/report/pool/balance'], async (req, reply) =>
      sendCsv(reply, 'pool/balance', req.query, await poolBalanceReport(ctx, await merchantOf(req), req.query)),
    );
  };
