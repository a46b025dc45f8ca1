import { z } from 'zod';
import { dataOf } from './common';
import { amountMinor } from './merchant-api';

export const PROVIDER_API_PREFIX = '/api/provider/v1';

export const incomingBody = z
  .object({
    accountId: z.int().positive().max(2_147_483_647),
    amount: amountMinor,
    occurredAt: z.iso.datetime({ offset: true }),
    reference: z.string().trim().min(1).max(128),
    /** the payer's name as the bank shows it, when the provider knows it: ranks that customer's deposits first */
    payerName: z.string().trim().min(1).max(128).optional(),
  })
  .strict();
export type IncomingBody = z.infer<typeof incomingBody>;

/**
 * UNMATCHED: no invoice took it yet; it is on the books in suspense. MATCHED: it paid an invoice. RETURNED: staff sent
 * it back to the payer.
 */
export const INCOMING_STATUSES = ['UNMATCHED', 'MATCHED', 'RETURNED'] as const;
export type IncomingStatus = (typeof INCOMING_STATUSES)[number];

const incomingPayment = z.object({
  id: z.uuid(),
  accountId: z.int(),
  amount: z.int(),
  occurredAt: z.iso.datetime(),
  reference: z.string(),
  payerName: z.string().nullable(),
  matchedInvoiceId: z.uuid().nullable(),
  status: z.enum(INCOMING_STATUSES),
  createdAt: z.iso.datetime(),
});
export type IncomingPayment = z.infer<typeof incomingPayment>;
export const incomingResponse = dataOf(incomingPayment);

export const incomingListQuery = z
  .object({
    unmatched: z.enum(['true', 'false']).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();
export const incomingListResponse = dataOf(z.array(incomingPayment));

export const payoutParams = z.object({ transactionId: z.uuid() }).strict();
export const payoutBody = z
  .object({ status: z.enum(['DONE', 'DECLINED']), reason: z.string().trim().max(500).optional() })
  .strict();
export const payoutResponse = dataOf(
  z.object({
    transactionId: z.uuid(),
    transactionStatus: z.string(),
    invoiceId: z.uuid(),
    invoiceStatus: z.string(),
  }),
);
