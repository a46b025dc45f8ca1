import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  banksResponse,
  formCompleteBody,
  formCompleteResponse,
  formCredentialBody,
  formCredentialResponse,
  formIdParams,
  formInitResponse,
  formStatusResponse,
  formSupportBody,
  formSupportResponse,
  PAYMENT_FORM_PREFIX,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { banksForForm, completePayment, formStatus, initForm, openSupportTicket, requestCredential } from './service';

const tags = ['payment form'];

/** The public payment form API: addressed by an unguessable form id, no session. */
export const paymentFormRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // generous per-IP limit: a form polls status every 5 s; this only stops scraping and floods
    await app.register(rateLimit, {
      max: 1200,
      timeWindow: '1 minute',
      errorResponseBuilder: (_req, c) => ({
        statusCode: 429,
        error: { code: 'TOO_MANY_REQUESTS', message: `Too many requests; retry in ${Math.ceil(c.ttl / 1000)} s` },
      }),
    });

    app.post(
      `${PAYMENT_FORM_PREFIX}/:formId/init`,
      { schema: { tags, summary: 'Load the payment form', params: formIdParams, response: { 200: formInitResponse } } },
      async (req) => ({ data: await initForm(ctx, req.params.formId) }),
    );
    app.post(
      `${PAYMENT_FORM_PREFIX}/:formId/credential`,
      {
        schema: {
          tags,
          summary: 'Choose method and amount; get requisites (deposit)',
          params: formIdParams,
          body: formCredentialBody,
          response: { 200: formCredentialResponse },
        },
      },
      async (req) => ({ data: await requestCredential(ctx, req.params.formId, req.body) }),
    );
    app.post(
      `${PAYMENT_FORM_PREFIX}/:formId/complete`,
      {
        schema: {
          tags,
          summary: '"Have paid" (deposit) or payout details (withdrawal)',
          params: formIdParams,
          body: formCompleteBody.optional(),
          response: { 200: formCompleteResponse },
        },
      },
      async (req) => ({ data: await completePayment(ctx, req.params.formId, req.body ?? {}) }),
    );
    app.post(
      `${PAYMENT_FORM_PREFIX}/:formId/status`,
      {
        schema: {
          tags,
          summary: 'Current status (polled)',
          params: formIdParams,
          response: { 200: formStatusResponse },
        },
      },
      async (req) => ({ data: await formStatus(ctx, req.params.formId) }),
    );
    app.get(
      `${PAYMENT_FORM_PREFIX}/:formId/banks/sbp`,
      {
        schema: { tags, summary: 'Banks for SBP withdrawals', params: formIdParams, response: { 200: banksResponse } },
      },
      async (req) => {
        return { data: await banksForForm(ctx, req.params.formId) };
      },
    );
    app.post(
      `${PAYMENT_FORM_PREFIX}/:formId/support`,
      {
        schema: {
          tags,
          summary: 'Open a support ticket for this payment',
          params: formIdParams,
          body: formSupportBody.optional(),
          response: { 200: formSupportResponse },
        },
      },
      async (req) => ({ data: await openSupportTicket(ctx, req.params.formId, req.body ?? {}) }),
    );
  };
