import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paymentFormRouteSpecs as spec } from '@paydesk/contracts/routes/payment-form';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { serve } from '../../lib/route';
import { banksForForm, completePayment, formStatus, initForm, openSupportTicket, requestCredential } from './service';

/** The public payment form API: addressed by an unguessable form id, no session. */
export const paymentFormPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // generous per-IP limit: a form polls status every 5 s; this only stops scraping and floods
    await app.register(rateLimit, {
      max: 1200,
      timeWindow: '1 minute',
      // the plugin throws what this returns: an AppError, so that the error handler sends it in the documented
      // shape (code and message) like every other refusal; the plugin has set Retry-After already
      errorResponseBuilder: (_req, c) => {
        const seconds = Math.max(1, Math.ceil(c.ttl / 1000));
        return new AppError('TOO_MANY_REQUESTS', `Too many requests; retry in ${seconds} s`, undefined, {
          'retry-after': String(seconds),
        });
      },
    });

    serve(app, spec['POST /api/payments/form/:formId/init'], async (req) => ({
      data: await initForm(ctx, req.params.formId),
    }));

    serve(app, spec['POST /api/payments/form/:formId/credential'], async (req) => ({
      data: await requestCredential(ctx, req.params.formId, req.body),
    }));

    serve(app, spec['POST /api/payments/form/:formId/complete'], async (req) => ({
      data: await completePayment(ctx, req.params.formId, req.body ?? {}),
    }));

    serve(app, spec['POST /api/payments/form/:formId/status'], async (req) => ({
      data: await formStatus(ctx, req.params.formId),
    }));

    serve(app, spec['GET /api/payments/form/:formId/banks/sbp'], async (req) => {
      return { data: await banksForForm(ctx, req.params.formId) };
    });

    serve(app, spec['POST /api/payments/form/:formId/support'], async (req) => ({
      data: await openSupportTicket(ctx, req.params.formId, req.body ?? {}),
    }));
  };
