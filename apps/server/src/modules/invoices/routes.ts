import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { INVOICE_CSV_FILENAME, INVOICE_STATUSES } from '@paydesk/contracts';
import { invoiceRouteSpecs as spec } from '@paydesk/contracts/routes/invoices';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';
import { heldOr, serve } from '../../lib/route';
import { merchantOf } from '../../lib/scope';
import { currentCaller, currentUser } from '../../plugins/auth';
import {
  changeInvoiceAmount,
  changeInvoiceStatus,
  countInvoicesExactly,
  exportInvoicesCsv,
  getInvoice,
  invoiceErrorList,
  invoiceEventList,
  invoiceTransactionList,
  listInvoices,
  revealInvoiceCredentials,
  statusHistory,
} from './service';

export const invoicesPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/invoice'], async (req) =>
      listInvoices(ctx, await merchantOf(req), req.query, currentUser(req).permissions),
    );

    serve(
      app,
      spec['GET /api/v1/invoice/csv'],
      async (req, reply) => {
        const merchantId = await merchantOf(req);
        const stream = await exportInvoicesCsv(ctx, merchantId, req.query, currentUser(req).permissions);
        return attachmentHeaders(reply, INVOICE_CSV_FILENAME).send(stream);
      },
      // the back-office downloads by navigating a hidden frame here (streamed to disk, errors read back)
      { onSend: framableBySameOrigin },
    );

    serve(app, spec['GET /api/v1/invoice/count'], async (req) => ({
      data: {
        total: await countInvoicesExactly(ctx, await merchantOf(req), req.query, currentUser(req).permissions),
      },
    }));

    serve(app, spec['GET /api/v1/invoice/:id'], async (req) => ({
      data: await getInvoice(ctx, await merchantOf(req), req.params.id, currentUser(req).permissions),
    }));

    serve(app, spec['POST /api/v1/invoice/:id/credentials/reveal'], async (req) => ({
      data: await revealInvoiceCredentials(ctx, await merchantOf(req), req.params.id, currentCaller(req)),
    }));

    // test invoices or invoice.status.change: canChangeStatus, checked in the service
    // a change a two-person policy covers answers 202 with its approval request, and nothing changes yet
    serve(app, spec['PATCH /api/v1/invoice/status'], async (req, reply) =>
      heldOr(reply, await changeInvoiceStatus(ctx, await merchantOf(req), req.body, currentCaller(req))),
    );

    serve(app, spec['PATCH /api/v1/invoice/amount'], async (req, reply) =>
      heldOr(reply, await changeInvoiceAmount(ctx, await merchantOf(req), req.body, currentCaller(req))),
    );

    serve(app, spec['GET /api/v1/event/status'], async (req) => ({
      data: await statusHistory(ctx, await merchantOf(req), req.query.invoiceId, currentUser(req)),
    }));

    serve(app, spec['GET /api/v1/event/error'], async (req) => ({
      data: await invoiceErrorList(ctx, await merchantOf(req), req.query.invoiceId),
    }));

    serve(app, spec['GET /api/v1/event/invoice'], async (req) => ({
      data: await invoiceEventList(ctx, await merchantOf(req), req.query.invoiceId, currentUser(req)),
    }));

    serve(app, spec['GET /api/v1/transaction/invoice'], async (req) => ({
      data: await invoiceTransactionList(ctx, await merchantOf(req), req.query.invoiceId),
    }));

    // The invoice-status reference: fetched by name; the answer may be cached for a day (cache-control below).
    serve(app, spec['GET /api/v1/dictionary/:name'], async (req, reply) => {
      if (req.params.name !== 'InvoiceStatus') throw notFound(`Dictionary ${req.params.name}`);
      reply.header('cache-control', 'private, max-age=86400');
      return { data: INVOICE_STATUSES.map((s) => ({ id: s.id, code: s.code, value: s.value })) };
    });
  };
