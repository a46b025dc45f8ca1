import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { merchantApiRouteSpecs as spec } from '@paydesk/contracts/routes/merchant-api';
import { publicBaseUrl } from '../../config';
import type { AppContext } from '../../lib/context';
import { parseRequestJson } from '../../lib/json';
import { AppError } from '../../lib/errors';
import { serve } from '../../lib/route';
import { forgetMerchant, verifyMerchantRequest, type CreateGuard } from './signature';
import { cancelMerchantInvoice, createInvoice, getMerchantInvoice, StaleCredentials } from './service';
import type { TerminalInfo } from './terminal-info';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
    merchantId?: string;
    prefetchedTerminal?: TerminalInfo | null;
    createGuard?: CreateGuard;
    /** The request was checked against the remembered key and terminal (signature.ts). */
    checkedRemembered?: boolean;
  }
}

/** Refusals that never depend on the remembered terminal: no second look at the database changes them. */
const NOT_FROM_MEMORY = new Set(['DUPLICATE', 'IDEMPOTENCY_CONFLICT', 'CONFLICT']);

const CREATE = 'POST /api/merchant/v1/invoices';

const merchantOf = (req: FastifyRequest) => {
  if (!req.merchantId) throw new AppError('INVALID_SIGNATURE', 'Signed request required');
  return req.merchantId;
};

/** Server-to-server API for merchants: every request is signed with the merchant's Ed25519 key. */
export const merchantApiPlugin =
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
    const verify = (req: FastifyRequest, opts: { create: boolean }) => {
      const body = req.body as { terminalId?: unknown } | undefined;
      return verifyMerchantRequest(
        ctx,
        { headers: req.headers, method: req.method, url: req.url, rawBody: req.rawBody ?? '' },
        { terminalId: typeof body?.terminalId === 'string' ? body.terminalId : undefined, create: opts.create },
      );
    };
    app.addHook('preValidation', async (req) => {
      const verified = await verify(req, { create: `${req.method} ${req.routeOptions.url}` === CREATE });
      req.merchantId = verified.merchantId;
      req.prefetchedTerminal = verified.terminal;
      req.createGuard = verified.guard;
      req.checkedRemembered = verified.remembered === true;
    });

    serve(app, spec[CREATE], async (req, reply) => {
      const key = req.headers['idempotency-key'];
      const create = (v: { terminal?: TerminalInfo | null; guard?: CreateGuard }) =>
        createInvoice(ctx, {
          merchantId: merchantOf(req),
          body: req.body,
          rawBody: req.rawBody ?? '',
          idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined,
          baseUrl,
          terminal: v.terminal,
          guard: v.guard,
        });
      let out;
      try {
        out = await create({ terminal: req.prefetchedTerminal, guard: req.createGuard });
      } catch (err) {
        const stale =
          err instanceof StaleCredentials ||
          (req.checkedRemembered && err instanceof AppError && !NOT_FROM_MEMORY.has(err.code));
        if (!stale) throw err;
        // checked against a key or terminal that has changed since (or refused on what was remembered of them):
        // check again against the database's
        forgetMerchant(merchantOf(req));
        out = await create(await verify(req, { create: false }));
      }
      if (out.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(out.statusCode as 201).send(out.body as never);
    });

    serve(app, spec['GET /api/merchant/v1/invoices/:invoiceId'], async (req) => ({
      data: await getMerchantInvoice(ctx, merchantOf(req), req.params.invoiceId, baseUrl),
    }));

    serve(app, spec['POST /api/merchant/v1/invoices/:invoiceId/cancel'], async (req) => {
      const merchantId = merchantOf(req);
      await cancelMerchantInvoice(ctx, merchantId, req.params.invoiceId);
      return { data: await getMerchantInvoice(ctx, merchantId, req.params.invoiceId, baseUrl) };
    });
  };
