import { z } from 'zod';
import {
  CALLBACK_BACKOFF_BASE_MS,
  CALLBACK_BACKOFF_CAP_MS,
  CALLBACK_GIVE_UP_MS,
  WEBHOOK_DESCRIPTIONS,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_TYPES,
  webhookPayload,
  type WebhookPayload,
  type WebhookType,
} from '@paydesk/contracts';

/**
 * The callbacks Paydesk sends, as OpenAPI 3.1 `webhooks`: one per type, with the payload
 * schema the server builds every body from (contracts' webhookPayload), the Standard Webhooks headers
 * and the retry schedule.
 */

const minutes = (ms: number) => `${ms / 60_000} min`;

const DELIVERY_RULES =
  `**Delivery.** A POST with a JSON body to the invoice's \`callbackUrl\` (else its terminal's), written in the same ` +
  `transaction as the change it reports, so none is ever lost. Any 2xx answer within 10 s counts as delivered; ` +
  `anything else (a non-2xx, a timeout, a refused connection) is retried after ${CALLBACK_BACKOFF_BASE_MS / 1000} s, ` +
  `doubling each time up to every ${minutes(CALLBACK_BACKOFF_CAP_MS)}, for ${CALLBACK_GIVE_UP_MS / 3_600_000} h; ` +
  `then it is marked FAILED and staff can send it again by hand (\`invoice.manual\`). Redirects are not followed, ` +
  `and callbacks only go to public addresses.\n\n` +
  `**Verify before you trust.** Headers follow [Standard Webhooks](https://www.standardwebhooks.com/): ` +
  `\`webhook-signature\` is \`v1,\` + base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{raw body}\` keyed ` +
  `with your \`whsec_…\` secret (base64 after the prefix). Any Standard Webhooks library verifies it. After a ` +
  `secret rotation the header carries two signatures, space-separated, for ${WEBHOOK_SECRET_OVERLAP_HOURS} h.\n\n` +
  `**Idempotent handling.** A retry carries the same \`webhook-id\` (with a fresh timestamp and signature): ` +
  `deduplicate on it. Deliveries can arrive out of order; \`statusDate\` tells which state is newer. DONE is final.`;

const HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The callback’s id: the same on every retry of one callback. Deduplicate on it.',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed. Refuse ones far from your clock (5 min).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}` with ' +
      'the merchant’s webhook secret (two during a rotation’s overlap).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

const EXAMPLE: Record<WebhookType, WebhookPayload> = {
  'invoice.status': {
    type: 'invoice.status',
    invoiceId: '0b7e4f5a-2c31-4d8e-a6f9-13c5e7d2b840',
    merchantInvoiceId: 'order-100245',
    flowType: 'DEPOSIT',
    status: 'DONE',
    amount: 15_000_000,
    currency: 'UZS',
    isTest: false,
    statusDate: '2025-03-14T10:07:12.000Z',
  },
  'invoice.amount_changed': {
    type: 'invoice.amount_changed',
    invoiceId: '0b7e4f5a-2c31-4d8e-a6f9-13c5e7d2b840',
    merchantInvoiceId: 'order-100245',
    flowType: 'DEPOSIT',
    status: 'IN_PROGRESS',
    amount: 14_500_000,
    currency: 'UZS',
    isTest: false,
    statusDate: '2025-03-14T10:05:40.000Z',
  },
  'invoice.manual': {
    type: 'invoice.manual',
    invoiceId: '0b7e4f5a-2c31-4d8e-a6f9-13c5e7d2b840',
    merchantInvoiceId: 'order-100245',
    flowType: 'WITHDRAWAL',
    status: 'CANCELED',
    amount: 2_500_000,
    currency: 'UZS',
    isTest: true,
    statusDate: '2025-03-14T11:00:00.000Z',
  },
};

/** The payload schema as a component (JSON Schema of the contracts' zod schema). */
export function webhookPayloadSchema(): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(webhookPayload, {
    target: 'draft-2020-12',
    io: 'output',
  }) as Record<string, unknown>;
  return schema;
}

/** The `webhooks` object: one POST per callback type. */
export function webhooksOf() {
  return Object.fromEntries(
    WEBHOOK_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\W/g, '_')}`,
          summary: WEBHOOK_DESCRIPTIONS[type].summary,
          description: `${WEBHOOK_DESCRIPTIONS[type].description}\n\n${DELIVERY_RULES}`,
          tags: ['Callbacks to the merchant'],
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    { $ref: '#/components/schemas/WebhookPayload' },
                    { type: 'object', properties: { type: { const: type } } },
                  ],
                },
                example: webhookPayload.parse(EXAMPLE[type]),
              },
            },
          },
          responses: {
            '200': { description: 'Received (any 2xx stops the retries; the body is ignored).' },
            '400': { description: 'Refused (e.g. the signature does not verify): retried with backoff.' },
            '500': { description: 'Your side failed: retried with backoff.' },
          },
        },
      },
    ]),
  );
}
