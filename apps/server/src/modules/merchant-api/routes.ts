import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createInvoiceBody,
  createInvoiceResponse,
  MERCHANT_API_PREFIX,
  merchantAuthHeaders,
  merchantInvoiceParams,
  merchantInvoiceResponse,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { parseRequestJson } from '../../lib/json';
import { AppError } from '../../lib/errors';
import { verifyMerchantRequest } from './signature';
import { cancelMerchantInvoice, createInvoice, getMerchantInvoice, type TerminalInfo } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
    merchantId?: string;
    prefetchedTerminal?: TerminalInfo | null;
  }
}

/** Payment-form links: PUBLIC_URL (required in production), never the request's Host header. */
function publicBaseUrl(ctx: AppContext) {
  return (ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`).replace(/\/+$/, '');
}

const merchantOf = (req: FastifyRequest) => {
  if (!req.merchantId) throw new AppError('INVALID_SIGNATURE', 'Signed request required');
  return req.merchantId;
};

const security = [{ merchantSignature: [] }];

/** Server-to-server API for merchants: every request is signed with the merchant's Ed25519 key. */
export const merchantApiRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // The signature covers the exact bytes sent: keep them (scoped to this plugin only).
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      const raw = body as string;
      req.rawBody = raw;
      try {
        done(null, parseRequestJson(raw));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    app.addHook('preValidation', async (req) => {
      const body = req.body as { terminalId?: unknown } | undefined;
      const verified = await verifyMerchantRequest(
        ctx,
        { headers: req.headers, method: req.method, url: req.url, rawBody: req.rawBody ?? '' },
        { terminalId: typeof body?.terminalId === 'string' ? body.terminalId : undefined },
      );
      req.merchantId = verified.merchantId;
      req.prefetchedTerminal = verified.terminal;
    });

    app.post(
      `${MERCHANT_API_PREFIX}/invoices`,
      {
        schema: {
          tags: ['merchant API'],
          summary: 'Create a deposit or withdrawal invoice',
          description:
            'Returns the payment form URL to send the customer to. Amounts are integers in minor units. ' +
            'An Idempotency-Key header replays the first response for 24 h.',
          security,
          headers: merchantAuthHeaders,
          body: createInvoiceBody,
          response: { 201: createInvoiceResponse },
        },
      },
      async (req, reply) => {
        const key = req.headers['idempotency-key'];
        const out = await createInvoice(ctx, {
          merchantId: await merchantOf(req),
          body: req.body,
          rawBody: req.rawBody ?? '',
          idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined,
          baseUrl: publicBaseUrl(ctx),
          terminal: req.prefetchedTerminal,
        });
        if (out.replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(out.statusCode as 201).send(out.body as never);
      },
    );

    app.get(
      `${MERCHANT_API_PREFIX}/invoices/:invoiceId`,
      {
        schema: {
          tags: ['merchant API'],
          summary: 'Read an invoice',
          security,
          headers: merchantAuthHeaders,
          params: merchantInvoiceParams,
          response: { 200: merchantInvoiceResponse },
        },
      },
      async (req) => ({
        data: await getMerchantInvoice(ctx, await merchantOf(req), req.params.invoiceId, publicBaseUrl(ctx)),
      }),
    );

    app.post(
      `${MERCHANT_API_PREFIX}/invoices/:invoiceId/cancel`,
      {
        schema: {
          tags: ['merchant API'],
          summary: 'Cancel an invoice',
          description: 'Deposits can be canceled until DONE; withdrawals only while NEW.',
          security,
          headers: merchantAuthHeaders,
          params: merchantInvoiceParams,
          response: { 200: merchantInvoiceResponse },
        },
      },
      async (req) => {
        const merchantId = await merchantOf(req);
        await cancelMerchantInvoice(ctx, merchantId, req.params.invoiceId);
        return { data: await getMerchantInvoice(ctx, merchantId, req.params.invoiceId, publicBaseUrl(ctx)) };
      },
    );
  };
