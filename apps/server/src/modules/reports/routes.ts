import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import {
  balanceReportQuery,
  invoiceReportQuery,
  poolBalanceReportQuery,
  providerReportQuery,
  reportFileName,
  type ReportKind,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';
import { merchantOf } from '../../lib/scope';
import { perm } from '../../plugins/auth';
import { balanceReport, invoiceReport, poolBalanceReport, providerReport } from './service';

function sendCsv(reply: FastifyReply, kind: ReportKind, q: { periodStart: string; periodEnd: string }, body: Readable) {
  return attachmentHeaders(reply, reportFileName(kind, q.periodStart, q.periodEnd)).send(body);
}

export const reportsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // every route here is a CSV download, which the back-office makes by navigating a hidden frame to it (streamed
    // to disk, errors read back); the hook stays inside this plugin
    app.addHook('onSend', framableBySameOrigin);
    app.get(
      '/api/v1/report/invoice',
      {
        config: perm('merchant.read.report', 'report.read.invoice'),
        schema: { tags: ['reports'], querystring: invoiceReportQuery },
      },
      async (req, reply) =>
        sendCsv(reply, 'invoice', req.query, await invoiceReport(ctx, await merchantOf(req), req.query)),
    );
    app.get(
      '/api/v1/report/balance',
      {
        config: perm('merchant.read.report', 'report.read.balance'),
        schema: { tags: ['reports'], querystring: balanceReportQuery },
      },
      async (req, reply) =>
        sendCsv(reply, 'balance', req.query, await balanceReport(ctx, await merchantOf(req), req.query)),
    );
    app.get(
      '/api/v1/report/provider',
      {
        config: perm('merchant.read.report', 'report.read.provider'),
        schema: { tags: ['reports'], querystring: providerReportQuery },
      },
      async (req, reply) =>
        sendCsv(reply, 'provider', req.query, await providerReport(ctx, await merchantOf(req), req.query)),
    );
    app.get(
      '/api/v1/report/pool/balance',
      {
        config: perm('merchant.read.report', 'report.read.pool.balance'),
        schema: { tags: ['reports'], querystring: poolBalanceReportQuery },
      },
      async (req, reply) =>
        sendCsv(reply, 'pool/balance', req.query, await poolBalanceReport(ctx, await merchantOf(req), req.query)),
    );
  };
