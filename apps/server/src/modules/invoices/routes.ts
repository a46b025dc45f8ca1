import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  INVOICE_CSV_FILENAME,
  INVOICE_STATUSES,
  changeInvoiceAmountBody,
  changeInvoiceStatusBody,
  dictionaryParams,
  invoiceCsvQuery,
  invoiceErrorsResponse,
  invoiceEventsResponse,
  invoiceIdQuery,
  invoiceListQuery,
  invoiceListResponse,
  invoiceResponse,
  invoiceStatusDictionaryResponse,
  invoiceStatusEventsResponse,
  invoiceTransactionsResponse,
  merchantScopeQuery,
  uuidParam,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';
import { merchantOf } from '../../lib/scope';
import { currentUser, perm } from '../../plugins/auth';
import {
  changeInvoiceAmount,
  changeInvoiceStatus,
  exportInvoicesCsv,
  getInvoice,
  invoiceErrorList,
  invoiceEventList,
  invoiceTransactionList,
  listInvoices,
  statusHistory,
} from './service';

const session = { auth: 'session' as const };
const tags = ['invoices'];

export const invoicesRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const caller = (req: Parameters<typeof currentUser>[0]) => ({ user: currentUser(req), ip: req.ip });

    app.get(
      '/api/v1/invoice',
      { config: session, schema: { tags, querystring: invoiceListQuery, response: { 200: invoiceListResponse } } },
      async (req) => listInvoices(ctx, await merchantOf(req), req.query, currentUser(req).permissions),
    );

    app.get(
      '/api/v1/invoice/csv',
      {
        // the back-office downloads by navigating a hidden frame here (streamed to disk, errors read back)
        onSend: framableBySameOrigin,
        config: session,
        schema: {
          tags,
          querystring: invoiceCsvQuery,
          produces: ['text/csv'],
          description: `All invoices matching the filters as ${INVOICE_CSV_FILENAME}, streamed (no row cap).`,
        },
      },
      async (req, reply) => {
        const merchantId = await merchantOf(req);
        const stream = await exportInvoicesCsv(ctx, merchantId, req.query, currentUser(req).permissions);
        return attachmentHeaders(reply, INVOICE_CSV_FILENAME).send(stream);
      },
    );

    app.get(
      '/api/v1/invoice/:id',
      {
        config: session,
        schema: {
          tags,
          params: uuidParam,
          querystring: merchantScopeQuery.strict(),
          response: { 200: invoiceResponse },
        },
      },
      async (req) => ({
        data: await getInvoice(ctx, await merchantOf(req), req.params.id, currentUser(req).permissions),
      }),
    );

    app.patch(
      '/api/v1/invoice/status',
      {
        // test invoices or invoice.status.change: canChangeStatus, checked in the service
        config: session,
        schema: {
          tags,
          querystring: merchantScopeQuery.strict(),
          body: changeInvoiceStatusBody,
          response: { 200: invoiceResponse },
        },
      },
      async (req) => ({ data: await changeInvoiceStatus(ctx, await merchantOf(req), req.body, caller(req)) }),
    );

    app.patch(
      '/api/v1/invoice/amount',
      {
        config: perm('invoice.amount.change'),
        schema: {
          tags,
          querystring: merchantScopeQuery.strict(),
          body: changeInvoiceAmountBody,
          response: { 200: invoiceResponse },
        },
      },
      async (req) => ({ data: await changeInvoiceAmount(ctx, await merchantOf(req), req.body, caller(req)) }),
    );

    app.get(
      '/api/v1/event/status',
      {
        config: session,
        schema: { tags, querystring: invoiceIdQuery, response: { 200: invoiceStatusEventsResponse } },
      },
      async (req) => ({ data: await statusHistory(ctx, await merchantOf(req), req.query.invoiceId) }),
    );

    app.get(
      '/api/v1/event/error',
      {
        config: perm('invoice.error.read'),
        schema: { tags, querystring: invoiceIdQuery, response: { 200: invoiceErrorsResponse } },
      },
      async (req) => ({ data: await invoiceErrorList(ctx, await merchantOf(req), req.query.invoiceId) }),
    );

    app.get(
      '/api/v1/event/invoice',
      {
        config: perm('invoice.event.read'),
        schema: { tags, querystring: invoiceIdQuery, response: { 200: invoiceEventsResponse } },
      },
      async (req) => ({ data: await invoiceEventList(ctx, await merchantOf(req), req.query.invoiceId) }),
    );

    app.get(
      '/api/v1/transaction/invoice',
      {
        config: perm('invoice.transaction.read'),
        schema: { tags, querystring: invoiceIdQuery, response: { 200: invoiceTransactionsResponse } },
      },
      async (req) => ({
        data: await invoiceTransactionList(ctx, await merchantOf(req), req.query.invoiceId),
      }),
    );

    // The invoice-status reference (SPEC §7: fetched by name, cached forever by the web).
    app.get(
      '/api/v1/dictionary/:name',
      {
        config: session,
        schema: {
          tags: ['references'],
          params: dictionaryParams,
          querystring: merchantScopeQuery.strict(),
          response: { 200: invoiceStatusDictionaryResponse },
        },
      },
      async (req, reply) => {
        if (req.params.name !== 'InvoiceStatus') throw notFound(`Dictionary ${req.params.name}`);
        reply.header('cache-control', 'private, max-age=86400');
        return { data: INVOICE_STATUSES.map((s) => ({ id: s.id, code: s.code, value: s.value })) };
      },
    );
  };
