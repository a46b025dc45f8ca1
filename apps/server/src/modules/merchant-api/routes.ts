import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { merchantApiRoutes as spec } from '@paydesk/contracts/routes/merchant-api';
import { publicBaseUrl } from '../../config';
import type { AppContext } from '../../lib/context';
import { parseRequestJson } from '../../lib/json';
import { AppError } from '../../lib/errors';
import { serve } from '../../lib/route';
import { verifyMerchantRequest } from './signature';
import { cancelMerchantInvoice, createInvoice, getMerchantInvoice, type TerminalInfo } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
    merchantId?: string;
    prefetchedTerminal?: TerminalInfo | null;
  }
}

const merchantOf = (req: FastifyRequest) => {
  if (!req.merchantId) throw new AppError('INVALID_SIGNATURE', 'Signed request required');
  return req.merchantId;
};

/** Server-to-server API for merchants: every request is signed with the merchant's Ed25519 key. */
export const merchantApiRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // payment-form links: PUBLIC_URL (required in production), never the request's Host header
    const baseUrl = publicBaseUrl(ctx.config);
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

    serve(app, spec['POST /api/merchant/v1/invoices'], async (req, reply) => {
      const key = req.headers['idempotency-key'];
      const out = await createInvoice(ctx, {
        merchantId: await merchantOf(req),
        body: req.body,
        rawBody: req.rawBody ?? '',
        idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined,
        baseUrl,
        terminal: req.prefetchedTerminal,
      });
      if (out.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(out.statusCode as 201).send(out.body as never);
    });

    serve(app, spec['GET /api/merchant/v1/invoices/:invoiceId'], async (req) => ({
      data: await getMerchantInvoice(ctx, await merchantOf(req), req.params.invoiceId, baseUrl),
    }));

    serve(app, spec['POST /api/merchant/v1/invoices/:invoiceId/cancel'], async (req) => {
      const merchantId = await merchantOf(req);
      await cancelMerchantInvoice(ctx, merchantId, req.params.invoiceId);
      return { data: await getMerchantInvoice(ctx, merchantId, req.params.invoiceId, baseUrl) };
    });
  };
