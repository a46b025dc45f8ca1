import { z } from 'zod';
import { dataOf } from './common';
import { CALLBACK_STATUSES, WEBHOOK_TYPES } from './engine';

/*
 * Callback deliveries across invoices: what a merchant and platform staff look at after the merchant's endpoint was
 * down (every delivery with its outcome, the endpoint's health) and the bulk replay that sends the events it missed
 * once more.
 */

/** One replay sends at most this many deliveries; a wider filter is refused (narrow it, e.g. by time). */
export const CALLBACK_REPLAY_MAX = 100_000;
/**
 * Replayed deliveries fall due this many per second, in the order their events happened: a recovered endpoint is
 * not flooded, and the worker serves the merchants' live callbacks first (see tickCallbacks).
 */
export const CALLBACK_REPLAY_PER_SECOND = 10;

/** Keyset position of a delivery: `<ISO time with microseconds>_<id>` as the previous page's `next` gave it. */
const cursor = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    {
      error: 'Not a cursor this list gave',
    },
  )
  .optional();

const instant = (what: string) =>
  z.iso.datetime({ offset: true, error: `${what} must be an ISO date-time` }).optional();

/**
 * Which deliveries: the same filter lists them and picks what a replay sends. `merchant` is for platform staff (all
 * merchants without it); merchant staff always get their own merchant's deliveries, whatever they send.
 */
const callbackDeliveryFilter = {
  status: z.enum(CALLBACK_STATUSES, { error: 'Choose PENDING, DELIVERED, FAILED or NO_URL' }).optional(),
  /** the event's type (the payload's `type`) */
  type: z.enum(WEBHOOK_TYPES, { error: `Choose ${WEBHOOK_TYPES.join(', ')}` }).optional(),
  /** when the delivery was created: inclusive from, exclusive to */
  from: instant('from'),
  to: instant('to'),
  invoiceId: z.uuid({ error: 'invoiceId must be an invoice id' }).optional(),
  merchant: z.uuid({ error: 'merchant must be a merchant id' }).optional(),
};

export const callbackDeliveryQuery = z
  .object({
    ...callbackDeliveryFilter,
    after: cursor,
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
export type CallbackDeliveryQuery = z.infer<typeof callbackDeliveryQuery>;
export type CallbackDeliveryFilter = Omit<CallbackDeliveryQuery, 'after' | 'limit'>;

const callbackDelivery = z.object({
  /** also the `webhook-id` it is sent with */
  id: z.uuid(),
  status: z.enum(CALLBACK_STATUSES),
  type: z.enum(WEBHOOK_TYPES),
  invoiceId: z.uuid(),
  merchantInvoiceId: z.string(),
  merchantId: z.uuid(),
  merchantName: z.string(),
  /** the invoice's status the event reported */
  invoiceStatus: z.string(),
  url: z.string().nullable(),
  attempts: z.int(),
  /** the latest attempt's HTTP status (null: none, or no answer) and error (timeout, refused connection…) */
  lastResponseCode: z.int().nullable(),
  lastError: z.string().nullable(),
  createDate: z.iso.datetime(),
  /** when it was last attempted */
  executionDate: z.iso.datetime().nullable(),
  /** a pending delivery's next attempt */
  nextAttemptAt: z.iso.datetime().nullable(),
  /** a replay: the delivery of the event it sends again (the event's first delivery) */
  replayOf: z.uuid().nullable(),
});
export type CallbackDelivery = z.infer<typeof callbackDelivery>;
export const callbackDeliveryListResponse = z.object({
  data: z.array(callbackDelivery),
  next: z.string().nullable(),
});

export const callbackHealthQuery = z.object({ merchant: callbackDeliveryFilter.merchant }).strict();

/** HEALTHY: the latest attempt got a 2xx; FAILING: it did not; IDLE: no attempt yet. */
const ENDPOINT_STATES = ['HEALTHY', 'FAILING', 'IDLE'] as const;

const endpointHealth = z.object({
  merchantId: z.uuid(),
  merchantName: z.string(),
  state: z.enum(ENDPOINT_STATES),
  lastSuccessAt: z.iso.datetime().nullable(),
  lastAttemptAt: z.iso.datetime().nullable(),
  lastResponseCode: z.int().nullable(),
  lastError: z.string().nullable(),
  /** attempts since the last 2xx (all of them when none ever succeeded) */
  consecutiveFailures: z.int(),
  /** attempts made in the last 24 h, and how many got a 2xx */
  attempts24h: z.int(),
  succeeded24h: z.int(),
  /** succeeded24h / attempts24h, 0…1; null when no attempt was made in the last 24 h */
  successRate24h: z.number().nullable(),
  /** deliveries waiting for their next attempt */
  pending: z.int(),
  /** the URLs the merchant's latest deliveries went to, most recent first */
  urls: z.array(z.string()),
});
export type EndpointHealth = z.infer<typeof endpointHealth>;
export const callbackHealthResponse = dataOf(z.array(endpointHealth));

export const callbackReplayBody = z
  .object({
    ...callbackDeliveryFilter,
    /** true: only count what would be sent, send nothing */
    preview: z.boolean().optional(),
  })
  .strict();
export type CallbackReplayBody = z.infer<typeof callbackReplayBody>;
/** `perSecond`: the rate the server sends replays at (its CALLBACK_REPLAY_PER_SECOND setting) */
export const callbackReplayPreviewResponse = dataOf(z.object({ count: z.int(), perSecond: z.int() }));
export const callbackReplayResponse = dataOf(z.object({ count: z.int(), replayId: z.uuid(), perSecond: z.int() }));
