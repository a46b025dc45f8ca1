import { z } from 'zod';
import { dataOf } from './common';
import { FLOW_TYPES, INVOICE_STATUS_CODES } from './statuses';

/** Minor units: a positive safe integer (JSON numbers beyond 2^53 are refused, never rounded). */
export const amountMinor = z.int().positive().max(Number.MAX_SAFE_INTEGER);

const httpUrl = z.url({ protocol: /^https?$/, message: 'Must be an http(s) URL' }).max(2048);

export const MERCHANT_API_PREFIX = '/api/merchant/v1';
/** Seconds a signed request's X-Timestamp may differ from the server clock. */
export const SIGNATURE_WINDOW_SECONDS = 300;
export const DEFAULT_INVOICE_EXPIRY_SECONDS = 1800;
const MAX_INVOICE_EXPIRY_SECONDS = 7 * 24 * 3600;

/** The exact bytes a merchant signs (Ed25519, base64 signature in X-Signature). */
export const merchantSignaturePayload = (timestamp: string | number, method: string, path: string, rawBody: string) =>
  `${timestamp}.${method.toUpperCase()}.${path}.${rawBody}`;

export const createInvoiceBody = z
  .object({
    // lowercased as parsed: the server compares it with ids as PostgreSQL prints them
    terminalId: z.uuid().toLowerCase(),
    flowType: z.enum(FLOW_TYPES),
    amount: amountMinor,
    currency: z.string().trim().min(3).max(10),
    merchantInvoiceId: z.string().trim().min(1).max(128),
    customer: z
      .object({
        externalId: z.string().trim().min(1).max(128),
        firstName: z.string().trim().max(100),
        lastName: z.string().trim().max(100),
      })
      .strict(),
    successUrl: httpUrl,
    cancelUrl: httpUrl,
    errorUrl: httpUrl,
    callbackUrl: httpUrl.optional(),
    paymentMethod: z.string().trim().min(1).max(32).optional(),
    canChangeAmount: z.boolean().optional(),
    expiresInSeconds: z.int().min(60).max(MAX_INVOICE_EXPIRY_SECONDS).optional(),
  })
  .strict();
export type CreateInvoiceBody = z.infer<typeof createInvoiceBody>;

const createInvoiceResult = z.object({
  invoiceId: z.uuid(),
  formId: z.string(),
  formUrl: z.string(),
  status: z.enum(INVOICE_STATUS_CODES),
  expiresAt: z.iso.datetime(),
});
export const createInvoiceResponse = dataOf(createInvoiceResult);
export type CreateInvoiceResult = z.infer<typeof createInvoiceResult>;

export const merchantInvoiceParams = z.object({ invoiceId: z.uuid() }).strict();

const merchantInvoice = z.object({
  invoiceId: z.uuid(),
  merchantInvoiceId: z.string(),
  providerInvoiceId: z.string().nullable(),
  terminalId: z.uuid(),
  flowType: z.enum(FLOW_TYPES),
  status: z.enum(INVOICE_STATUS_CODES),
  amount: z.int(),
  fee: z.int(),
  currency: z.string(),
  paymentMethod: z.string().nullable(),
  formUrl: z.string(),
  createdAt: z.iso.datetime(),
  statusDate: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type MerchantInvoice = z.infer<typeof merchantInvoice>;
export const merchantInvoiceResponse = dataOf(merchantInvoice);

/** Headers of a signed merchant request, documented in OpenAPI. */
export const merchantAuthHeaders = z.object({
  'x-merchant-id': z.string().describe('Merchant id (UUID)'),
  'x-timestamp': z.string().describe('Unix seconds, within ±300 s of the server clock'),
  'x-signature': z.string().describe('base64 Ed25519 signature of `${timestamp}.${METHOD}.${path}.${rawBody}`'),
  'idempotency-key': z.string().max(255).optional().describe('Replays the first response for 24 h'),
});
